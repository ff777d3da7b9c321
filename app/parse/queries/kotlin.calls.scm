; Call sites for the call graph, by name (app/parse/calls.py).
(call_expression (simple_identifier) @callee) @call
(call_expression (navigation_expression (_) @receiver
  (navigation_suffix (simple_identifier) @callee))) @call
(import_header) @import
; Bases: `class A : B(), C`, `interface Channel<E> : SendChannel<E>`, `object O : B()`.
([(class_declaration (delegation_specifier [(user_type) @base
    (constructor_invocation (user_type) @base) (explicit_delegation (user_type) @base)]))
  (object_declaration (delegation_specifier [(user_type) @base
    (constructor_invocation (user_type) @base) (explicit_delegation (user_type) @base)]))] @class)
; Local types: `val c = Calc()` (a capitalised constructor), when no type is declared.
(property_declaration (variable_declaration (simple_identifier) @var .)
  (call_expression (simple_identifier) @type)) @bind
; A value a call returns, as the called function declares it: `val k = KoinApplication.init()`,
; `val f = resolveDefinition(c) ?: return null` (a constructor's type above wins over it).
(property_declaration (variable_declaration (simple_identifier) @var .)
  [(call_expression) @result (elvis_expression . (call_expression) @result)]) @bind
; Declared types, which the value does not override: `val r: Resolver = ResolverV2(this)`,
; `var logger: Logger? = null`; constructor properties: `class Scope(val _koin: Koin)`.
(property_declaration (variable_declaration (simple_identifier) @var
  [(user_type) @type (nullable_type (user_type) @type)])) @bind
(class_parameter (binding_pattern_kind) (simple_identifier) @var
  [(user_type) @type (nullable_type (user_type) @type)]) @bind
; Loop items, `for (x in xs)`, and the items a collection function's lambda takes, `xs.forEach
; { x -> }`, `xs.map { it.name }` (no parameter: `it`), are the collection's elements.
(for_statement (variable_declaration (simple_identifier) @var) . (_) @element_of) @bind
(call_expression
  (navigation_expression (_) @element_of (navigation_suffix (simple_identifier) @_walks))
  (call_suffix (annotated_lambda
    (lambda_literal (lambda_parameters . (variable_declaration (simple_identifier) @var) .)?)
      @bind))
  (#any-of? @_walks "forEach" "map" "mapNotNull" "flatMap" "filter" "filterNot" "any" "all"
    "none" "count" "first" "firstOrNull" "last" "lastOrNull" "find" "onEach" "sumOf"
    "associateBy" "associateWith" "groupBy" "sortedBy" "sortedByDescending" "maxByOrNull"
    "minByOrNull" "takeWhile" "dropWhile" "partition" "distinctBy" "single" "singleOrNull"))
; Parameters' types, builtin values: `s: String`, `val t = "x"`, `val xs = mutableListOf(1)`.
(parameter (simple_identifier) @var [(user_type) @type (nullable_type (user_type) @type)]) @bind
(property_declaration (variable_declaration (simple_identifier) @var .)
  [(string_literal) (call_expression)] @literal) @bind
; What a method returns (`Foo bar()`, `bar(): Foo`, `-> Foo`): a call chain's next receiver.
(function_declaration (function_value_parameters) . ":" .
  [(user_type) @returns (nullable_type (user_type) @returns)]) @method
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
[(lambda_literal) (anonymous_function)] @closure
; A type parameter's upper bound (`fun <T : KoinScopeComponent> T.createScope()`): inside an
; extension on `T`, `this` is at least the bound.
(function_declaration (type_parameters
  (type_parameter (type_identifier) @type_param (user_type) @type_bound))) @generic
