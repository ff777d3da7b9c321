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
(variable_declaration (variable_declarator value: (call_expression
  function: (identifier) @_require (#eq? @_require "require")))) @import
(class_declaration (class_heritage (_) @base)) @class
; A variable bound to what a call returns: `const isString = typeOfTest('string')`.
(variable_declarator name: (identifier) @var
  value: (call_expression function: [(identifier) (member_expression)] @_called) @result
  (#not-eq? @_called "require")) @bind
(variable_declarator name: (identifier) @var
  value: (await_expression (call_expression function: [(identifier) (member_expression)]) @result)) @bind
; Local types: `const c = new Client()`.
(variable_declarator name: (identifier) @var value: (new_expression constructor: [(identifier) (member_expression)] @type)) @bind
; Builtin values (`const a = []`, `...args`) and local aliases (`const f = mod.func`).
(variable_declarator name: (identifier) @var
  value: [(array) (object) (string) (template_string) (regex)] @literal) @bind
(formal_parameters (rest_pattern (identifier) @var) @literal @bind)
(variable_declarator name: (identifier) @var value: (member_expression) @alias) @bind
; `module.exports = View`: what requiring the module gives.
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) @var
  right: (identifier) @alias
  (#eq? @_module "module") (#eq? @_exports "exports")) @bind
; `export default useAuth`, `export default function make() {}`: what the module gives to
; `import useAuth from "./useAuth"` (its `default`).
(export_statement "default" @var value: (identifier) @alias) @bind
(export_statement "default" @var
  declaration: [(function_declaration name: (identifier) @alias)
               (generator_function_declaration name: (identifier) @alias)
               (class_declaration name: (identifier) @alias)]) @bind
; Attributes of the instance: `this.client = new Client()` types `this.client` in every method.
(assignment_expression left: (member_expression object: (this) property: (property_identifier)) @var
  right: (new_expression constructor: [(identifier) (member_expression)] @type)) @bind
; `var f = require('./utils').f`: one name of a module.
(lexical_declaration (variable_declarator value: (member_expression object: (call_expression
  function: (identifier) @_require (#eq? @_require "require"))))) @import
(variable_declaration (variable_declarator value: (member_expression object: (call_expression
  function: (identifier) @_require (#eq? @_require "require"))))) @import
; Parameters: a bare call of one calls whatever is passed, not a definition of that name.
(formal_parameters (identifier) @param)
(formal_parameters (assignment_pattern left: (identifier) @param))
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
