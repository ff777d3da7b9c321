; Call sites, imports and bases for the call graph (app/parse/calls.py reads the captures).
(call_expression . (simple_identifier) @callee) @call
(call_expression . (navigation_expression target: (_) @receiver
  suffix: (navigation_suffix suffix: (simple_identifier) @callee))) @call
(call_expression . (_) @dynamic) @call
(import_declaration) @import
(class_declaration (inheritance_specifier inherits_from: (user_type) @base)) @class
; Local types: `let c = Calc()`, `var c: Calc`, `func f(c: Calc)`, stored properties alike.
(property_declaration (pattern (simple_identifier) @var)
  (call_expression . (simple_identifier) @type)) @bind
(property_declaration (pattern (simple_identifier) @var)
  (type_annotation (user_type) @type)) @bind
(parameter name: (simple_identifier) @var . (user_type) @type) @bind
; Builtin values (`let d = [:]`, `names: [String]`) and local aliases (`let f = helper.help`).
(property_declaration (pattern (simple_identifier) @var)
  [(array_literal) (dictionary_literal) (line_string_literal) (multi_line_string_literal)]
  @literal) @bind
(property_declaration (pattern (simple_identifier) @var)
  (type_annotation [(array_type) (dictionary_type)] @literal)) @bind
(parameter name: (simple_identifier) @var . [(array_type) (dictionary_type)] @literal) @bind
(property_declaration (pattern (simple_identifier) @var) (navigation_expression) @alias) @bind
; Properties of the instance: `self.helper = Helper()` types `self.helper` in every method.
(assignment target: (directly_assignable_expression
  (navigation_expression target: (self_expression)) @var)
  result: (call_expression . (simple_identifier) @type)) @bind
; Parameters: a bare call of one calls whatever is passed, not a definition of that name.
(parameter name: (simple_identifier) @param)
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`).
(lambda_literal) @closure
