; Elixir writes every definition as a macro call: `defmodule Name do`, `def name(args) do`.
; A function's clauses (`def f(0)`, `def f(n)`) are one definition (definitions.py joins them).
(call target: (identifier) @_keyword (arguments . (alias) @name)
  (#eq? @_keyword "defmodule")) @definition.module
(call target: (identifier) @_keyword (arguments . (alias) @name)
  (#eq? @_keyword "defprotocol")) @definition.interface
(call target: (identifier) @_keyword (arguments . (alias) @name)
  (#eq? @_keyword "defimpl")) @definition.impl
(call target: (identifier) @_keyword
  (arguments . [(call target: (identifier) @name)
                (identifier) @name
                (binary_operator left: (call target: (identifier) @name) operator: "when")
                (binary_operator left: (identifier) @name operator: "when")])
  (#any-of? @_keyword "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp"
    "defdelegate" "defn" "defnp")) @definition.function
; A behaviour's callbacks are its API: `@callback get(queryable :: t, id :: term) :: t | nil`.
(unary_operator operator: "@"
  operand: (call target: (identifier) @_attribute
    (arguments . (binary_operator
      left: [(call target: (identifier) @name)
             (binary_operator left: (call target: (identifier) @name))]))
    (#any-of? @_attribute "callback" "macrocallback"))) @definition.function

; Doc attributes document the definition below them; other attributes (`@spec`, `@impl`)
; stay with it.
(unary_operator operator: "@"
  operand: (call target: (identifier) @_attribute (arguments . [(string) (sigil)])
    (#any-of? @_attribute "doc" "typedoc"))) @comment
(unary_operator operator: "@"
  operand: (call target: (identifier) @_attribute
    (#any-of? @_attribute "spec" "impl" "deprecated"
      "decorate" "dialyzer" "doc"))) @attribute
(comment) @comment
