"""A call the graph resolves to an interface's or a base class's method reaches the project
methods that implement or override it, in `callers` and `callees` (real tree-sitter, a real
index): eShopOnWeb's `OrderService.CreateOrderAsync` had no caller, every call of it going
through `IOrderService`."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from app.graph.dispatch import ONE_OF_SEVERAL, ONLY_IMPLEMENTATION
from tests.unit.test_graph_resolution import build

ORDERS_CS = {
    "src/Core/IOrderService.cs": (
        "namespace Shop.Core;\n\n"
        "public interface IOrderService\n{\n"
        "    Task CreateOrderAsync(int basketId);\n}\n"
    ),
    "src/Core/OrderService.cs": (
        "namespace Shop.Core;\n\n"
        "public class OrderService : IOrderService\n{\n"
        "    public async Task CreateOrderAsync(int basketId)\n    {\n"
        "        await Save(basketId);\n    }\n\n"
        "    private Task Save(int id) => Task.CompletedTask;\n}\n"
    ),
    "src/Web/Checkout.cs": (
        "using Shop.Core;\n\nnamespace Shop.Web;\n\n"
        "public class CheckoutModel\n{\n"
        "    private readonly IOrderService _orders;\n\n"
        "    public async Task OnPost(int basketId)\n    {\n"
        "        await _orders.CreateOrderAsync(basketId);\n"  # 11
        "    }\n}\n"
    ),
}


def test_a_call_through_an_interface_reaches_its_only_implementation(
    tmp_path: Path, settings: Settings
) -> None:
    service, _ = build(tmp_path, settings, ORDERS_CS)
    callers = service.callers("OrderService.CreateOrderAsync").entries
    assert [(e.symbol, e.call_path, e.line, e.tier, e.rule) for e in callers] == [
        (
            "CheckoutModel.OnPost", "src/Web/Checkout.cs", 11, "probable",
            "through IOrderService.CreateOrderAsync",
        )
    ]  # fmt: skip
    assert callers[0].confidence == ONLY_IMPLEMENTATION
    # The interface's own callers are what the call names, certain, as before.
    direct = service.callers("IOrderService.CreateOrderAsync").entries
    assert [(e.symbol, e.tier) for e in direct] == [("CheckoutModel.OnPost", "certain")]
    # Walking down from the interface's method: what a call of it runs.
    runs = service.callees("IOrderService.CreateOrderAsync").entries
    assert [(e.symbol, e.call_path, e.line, e.rule) for e in runs] == [
        ("OrderService.CreateOrderAsync", "src/Core/OrderService.cs", 5, "implementation")
    ]


SHAPES_PY = {
    "shapes.py": (
        "class Shape:\n"
        "    def area(self):\n"
        "        return 0\n\n"
        "    def describe(self):\n"
        '        return f"{self.area()}"\n\n\n'  # 6: runs whichever area the object has
        "class Square(Shape):\n"
        "    def __init__(self, side):\n"
        "        self.side = side\n\n"
        "    def area(self):\n"
        "        return self.side * self.side\n\n\n"
        "class Circle(Shape):\n"
        "    def area(self):\n"
        "        return 3\n"
    ),
}


def test_an_override_is_one_of_several_a_base_call_may_run(
    tmp_path: Path, settings: Settings
) -> None:
    service, _ = build(tmp_path, settings, SHAPES_PY)
    callers = service.callers("Square.area").entries
    assert [(e.symbol, e.line, e.tier, e.rule) for e in callers] == [
        ("Shape.describe", 6, "uncertain", "through Shape.area")
    ]
    assert callers[0].confidence == ONE_OF_SEVERAL  # Shape.area, Square's or Circle's
    runs = service.callees("Shape.area").entries
    assert {(e.symbol, e.rule, e.tier) for e in runs} == {
        ("Square.area", "override", "uncertain"),
        ("Circle.area", "override", "uncertain"),
    }
    # A method that overrides nothing keeps its callers as they are.
    assert service.callers("Shape.describe").entries == ()


def test_the_graph_screen_says_how_a_dispatched_entry_is_reached(
    tmp_path: Path, settings: Settings
) -> None:
    from app.tui.graph_rows import call_links

    service, _ = build(tmp_path, settings, ORDERS_CS)
    callers = call_links(service.callers("OrderService.CreateOrderAsync"), "callers", str)
    assert [(c.name, c.reason) for c in callers] == [
        ("CheckoutModel.OnPost", "through IOrderService.CreateOrderAsync")
    ]
    runs = call_links(service.callees("IOrderService.CreateOrderAsync"), "callees", str)
    assert [(c.name, c.reason) for c in runs] == [
        ("OrderService.CreateOrderAsync", "implementation")
    ]
    named = call_links(service.callees("OrderService.CreateOrderAsync"), "callees", str)
    assert all(not c.reason for c in named if c.target is not None)  # calls the code names
