; Call sites, imports and bases for the call graph (app/parse/calls.py reads the captures).
(call function: (identifier) @callee) @call
(call function: (attribute object: (_) @receiver attribute: (identifier) @callee)) @call
(call function: (_) @dynamic) @call
(import_statement) @import
(import_from_statement) @import
(class_definition superclasses: (argument_list [(identifier) (attribute)] @base)) @class
; A generic base (`class AppRunner(BaseRunner[Request])`) is the base itself; typing's
; `Generic[T]` and `Protocol[T]` only declare type parameters.
(class_definition superclasses: (argument_list
  (subscript value: [(identifier) (attribute)] @base))
  (#not-match? @base "^(typing[.])?(Generic|Protocol)$")) @class
; Local types: `c = Client(...)`, `with Client() as c`, `def f(c: Client)`.
(assignment left: (identifier) @var right: (call function: [(identifier) (attribute)] @type)) @bind
; `resp = await req.send(conn)`: what the coroutine function declares it returns.
(assignment left: (identifier) @var
  right: (await (call function: [(identifier) (attribute)] @type))) @bind
(with_item value: (as_pattern (call function: [(identifier) (attribute)] @type)
  alias: (as_pattern_target (identifier) @var))) @bind
(typed_parameter (identifier) @var type: (type [(identifier) (attribute) (string) (binary_operator) (generic_type) (subscript)] @type)) @bind
; An annotation is read whole (app/parse/python_types.py): `Optional[Conn]`, `Conn | None` and
; the forward reference `"Conn | None"` are a Conn; `List[Conn]` and `A | B` no single class.
; Annotated names: a class body's `client: Client` (a dataclass's field), `resp: Response =
; await ...`, `x: Foo = None`; with a call on the right the call says (`names: SetStr = set()`).
(assignment left: (identifier) @var type: (type [(identifier) (attribute) (string) (binary_operator) (generic_type) (subscript)] @type) !right) @bind
(assignment left: (identifier) @var type: (type [(identifier) (attribute) (string) (binary_operator) (generic_type) (subscript)] @type)
  right: [(await) (none) (list) (list_comprehension)]) @bind
(typed_default_parameter name: (identifier) @var type: (type [(identifier) (attribute) (string) (binary_operator) (generic_type) (subscript)] @type)) @bind

; Builtin values (`d = {}`, `*args`, `**kwargs`) and local aliases (`step = self.tracker.step`).
(assignment left: (identifier) @var right: [(dictionary) (dictionary_comprehension) (list)
  (list_comprehension) (set) (set_comprehension) (string) (concatenated_string) (tuple)] @literal) @bind
(dictionary_splat_pattern (identifier) @var) @literal @bind
(list_splat_pattern (identifier) @var) @literal @bind
(assignment left: (identifier) @var right: [(attribute) (identifier)] @alias) @bind
; `_RequestContextManager = _BaseRequestContextManager[ClientResponse]`: the generic itself
; (a class's name, not `d[key]` or `CODES[key]`, nor typing's forms: `X = Annotated[int, ...]`
; makes no X to call).
(assignment left: (identifier) @var
  right: (subscript value: [(attribute) (identifier)] @alias)
  (#match? @alias "(^|[.])_*[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$")
  (#not-match? @alias "^(typing[.]|t[.])?(Annotated|Union|Optional|Literal|Callable|ClassVar|Final|Type|Tuple|List|Dict|Set)$")) @bind
; Attributes of the instance: `self.client = Client(...)` types `self.client` in every method.
(assignment left: (attribute object: (identifier) @_self attribute: (identifier)) @var
  right: (call function: [(identifier) (attribute)] @type) (#eq? @_self "self")) @bind
; `self.client: Client = client`, `= None`, `= await ...`: the annotation.
(assignment left: (attribute object: (identifier) @_self attribute: (identifier)) @var
  type: (type [(identifier) (attribute) (string) (binary_operator) (generic_type) (subscript)] @type)
  right: [(identifier) (await) (none) (list) (list_comprehension)]
  (#eq? @_self "self")) @bind
; `self._payload = payload`: the type the method's parameter is annotated with.
(assignment left: (attribute object: (identifier) @_self attribute: (identifier)) @var
  right: (identifier) @value_of (#eq? @_self "self")) @bind
; A loop's items: `for conn in self.conns` (`conns: List[Conn]`) holds Conns.
(for_statement left: (identifier) @var right: (_) @element_of) @bind
; Parameters: a bare call of one calls whatever is passed, not a definition of that name.
(parameters (identifier) @param)
(parameters (typed_parameter (identifier) @param))
(parameters (default_parameter name: (identifier) @param))
(parameters (typed_default_parameter name: (identifier) @param))
; What a function declares it returns (`-> Response`) types a call chain's next receiver and a
; variable bound to its call; a property's (`@property def headers(self) -> Headers`) reads as
; an attribute of that type.
(function_definition return_type: (type) @returns) @method
(decorated_definition
  (decorator [(identifier) (attribute attribute: (identifier))] @_decorator)
  definition: (function_definition return_type: (type) @returns) @property
  (#match? @_decorator "(^|[.])(property|cached_property)$"))
; Any attribute a statement sets (`obj.name = ...`, `self.a, self.b = ...`, `x.n += 1`): a
; name the project gives some object, so a `self.name` is no outside base's (app.graph.resolve).
(assignment left: (attribute attribute: (identifier) @assigned))
(assignment left: [(pattern_list) (tuple_pattern)] (attribute attribute: (identifier) @assigned))
(augmented_assignment left: (attribute attribute: (identifier) @assigned))
