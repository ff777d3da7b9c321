; Call sites, imports and bases for the call graph (app/parse/calls.py reads the captures).
(call_expression function: (identifier) @callee) @call
(call_expression function: (member_expression object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @callee)) @call
(call_expression function: (_) @dynamic) @call
(new_expression constructor: (identifier) @callee) @call
(new_expression constructor: (member_expression object: (_) @receiver
  property: (property_identifier) @callee)) @call
(import_statement) @import
(export_statement source: (_)) @import
(lexical_declaration (variable_declarator value: (call_expression
  function: (identifier) @_require (#eq? @_require "require")))) @import
(class_declaration (class_heritage (extends_clause value: (_) @base))) @class
(class_declaration (class_heritage (implements_clause (_) @base))) @class
(abstract_class_declaration (class_heritage (extends_clause value: (_) @base))) @class
(abstract_class_declaration (class_heritage (implements_clause (_) @base))) @class
(interface_declaration (extends_type_clause (_) @base)) @class
; Local types: `const c = new Client()`.
(variable_declarator name: (identifier) @var value: (new_expression constructor: [(identifier) (member_expression)] @type)) @bind
(required_parameter pattern: (identifier) @var type: (type_annotation (type_identifier) @type)) @bind
(variable_declarator name: (identifier) @var type: (type_annotation (type_identifier) @type)) @bind
; A type beside null or undefined is that type (app/parse/optional_types.py): `c: Conn | null`,
; `c?: Conn`, and a class's fields (`private conn: Conn | null = null`), read in its methods as
; `this.conn`.
(required_parameter pattern: (identifier) @var type: (type_annotation (union_type) @type)) @bind
(variable_declarator name: (identifier) @var type: (type_annotation (union_type) @type)) @bind
(optional_parameter pattern: (identifier) @var
  type: (type_annotation [(type_identifier) (nested_type_identifier) (union_type)] @type)) @bind
(public_field_definition name: (property_identifier) @this_var
  type: (type_annotation [(type_identifier) (nested_type_identifier) (union_type)] @type)) @bind
(public_field_definition name: (property_identifier) @this_var
  type: (type_annotation (generic_type name: (type_identifier)) @type)) @bind
; A declared type named through a module or with arguments: `const $ZodType: core.$constructor<T>`.
(variable_declarator name: (identifier) @var
  type: (type_annotation [(nested_type_identifier) (generic_type)] @type)) @bind
; Builtin values (`const a = []`, `...args`) and local aliases (`const f = mod.func`).
(variable_declarator name: (identifier) @var
  value: [(array) (object) (string) (template_string) (regex)] @literal) @bind
(variable_declarator name: (identifier) @var value: (member_expression) @alias) @bind
(required_parameter pattern: (rest_pattern (identifier) @var) @literal) @bind
(required_parameter pattern: (identifier) @var
  type: (type_annotation [(array_type) (predefined_type)] @literal)) @bind
(optional_parameter pattern: (identifier) @var
  type: (type_annotation [(array_type) (predefined_type)] @literal)) @bind
(variable_declarator name: (identifier) @var
  type: (type_annotation [(array_type) (predefined_type)] @literal)) @bind
(required_parameter pattern: (identifier) @var
  type: (type_annotation (generic_type name: (type_identifier)) @type)) @bind
(optional_parameter pattern: (identifier) @var
  type: (type_annotation (generic_type name: (type_identifier)) @type)) @bind
; `export { stringType as string }`: the module's `string` is its `stringType`.
(export_statement !source (export_clause (export_specifier name: (identifier) @alias
  alias: (identifier) @var))) @bind
; `export default useAuth`, `export default function make() {}`: what the module gives to
; `import useAuth from "./useAuth"` (its `default`).
(export_statement "default" @var value: (identifier) @alias) @bind
(export_statement "default" @var
  declaration: [(function_declaration name: (identifier) @alias)
               (generator_function_declaration name: (identifier) @alias)
               (class_declaration name: (type_identifier) @alias)
               (abstract_class_declaration name: (type_identifier) @alias)]) @bind
; A constructor's parameter property (`constructor(private readonly users: UserService)`): a
; field of the instance, typed in every method (Angular's and NestJS's injected services).
(required_parameter (accessibility_modifier) pattern: (identifier) @this_var
  type: (type_annotation [(type_identifier) (generic_type name: (type_identifier))] @type)) @bind
(required_parameter "readonly" pattern: (identifier) @this_var
  type: (type_annotation [(type_identifier) (generic_type name: (type_identifier))] @type)) @bind
; Attributes of the instance: `this.client = new Client()` types `this.client` in every method.
(assignment_expression left: (member_expression object: (this) property: (property_identifier)) @var
  right: (new_expression constructor: [(identifier) (member_expression)] @type)) @bind
; `var f = require('./utils').f`: one name of a module.
(lexical_declaration (variable_declarator value: (member_expression object: (call_expression
  function: (identifier) @_require (#eq? @_require "require"))))) @import
(variable_declaration (variable_declarator value: (member_expression object: (call_expression
  function: (identifier) @_require (#eq? @_require "require"))))) @import
; Parameters: a bare call of one calls whatever is passed, not a definition of that name.
(required_parameter pattern: (identifier) @param)
(optional_parameter pattern: (identifier) @param)
; What a method returns (`Foo bar()`, `bar(): Foo`, `-> Foo`): a call chain's next receiver.
(method_definition return_type: (type_annotation (_) @returns)) @method
(method_signature return_type: (type_annotation (_) @returns)) @method
; A variable bound to what a call returns: `const q = makeQuery()`, `const r = db.select()`.
(variable_declarator name: (identifier) @var
  value: (call_expression function: [(identifier) (member_expression)] @_called) @result
  (#not-eq? @_called "require")) @bind
; A loop's items: `for (const s of this.sockets)` (`sockets: Socket[]`) holds Sockets.
(for_in_statement left: (identifier) @var "of" right: (_) @element_of) @bind
; `const r = await client.send()`: what the async method's `Promise<Response>` holds.
(variable_declarator name: (identifier) @var
  value: (await_expression (call_expression function: [(identifier) (member_expression)]) @result)) @bind
(function_declaration return_type: (type_annotation (_) @returns)) @method
; Names unpacked from a value (`const { serialize } = opts`, `({ onError }) =>`,
; `const [get, set] = pair`): a bare call of one calls whatever the value holds.
(object_pattern (shorthand_property_identifier_pattern) @unpacked)
(object_pattern (pair_pattern value: (identifier) @unpacked))
(object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @unpacked))
; `const { showSuccessToast } = useCustomToast()`: what a function of the project returns
; (a custom hook's own functions).
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @unpacked)
  value: (call_expression function: (identifier) @returned_by))
(array_pattern (identifier) @unpacked)
; `const Icon = Icons[name]`: an element of a value, whatever it holds.
(variable_declarator name: (identifier) @unpacked value: (subscript_expression))
(array_pattern (assignment_pattern left: (identifier) @unpacked))
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
[(arrow_function) (function_expression)] @closure
