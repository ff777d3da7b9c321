; Call sites and bases for the call graph, by name (app/parse/calls.py).
(function_call_expression function: (name) @callee) @call
(function_call_expression function: (_) @dynamic) @call
(member_call_expression object: (_) @receiver name: (name) @callee) @call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @callee) @call  ; `$a?->b()`
(scoped_call_expression scope: (_) @receiver name: (name) @callee) @call
(object_creation_expression (name) @callee) @call
(class_declaration (base_clause [(name) (qualified_name)] @base)) @class
; A trait a class uses (`use Greets;` in its body): its methods are the class's own.
(class_declaration body: (declaration_list (use_declaration [(name) (qualified_name)] @base))) @class
(namespace_use_declaration) @import
; Local types: `$w = new Widget()`, `function f(Widget $w)`; a field's, `$this->w = new Widget()`,
; `$this->w = $w` (the parameter's type), `private Widget $w;` (in every method).
(assignment_expression left: [(variable_name) (member_access_expression)] @var
  right: (object_creation_expression [(name) (qualified_name)] @type)) @bind
(assignment_expression left: (member_access_expression) @var right: (variable_name) @value_of) @bind
(simple_parameter type: (named_type [(name) (qualified_name)] @type) name: (variable_name) @var) @bind
; What a `catch (SyntaxError $e)` of one type catches (weaker than a type bound elsewhere).
(catch_clause type: (type_list . (named_type [(name) (qualified_name)] @caught) .)
  name: (variable_name) @var) @bind
(property_declaration type: (named_type [(name) (qualified_name)] @type)
  (property_element (variable_name (name) @var))) @bind
; PHP 8's constructor promotion (`__construct(private readonly UserRepository $users)`): the
; parameter is a field, typed in every method, and a local of the constructor.
(property_promotion_parameter type: (named_type [(name) (qualified_name)] @type)
  name: (variable_name (name) @this_var)) @bind
(property_promotion_parameter type: (named_type [(name) (qualified_name)] @type)
  name: (variable_name) @var) @bind
; What a method returns (`Foo bar()`, `bar(): Foo`, `-> Foo`): a call chain's next receiver.
(method_declaration return_type: (_) @returns) @method
; A variable bound to what a call returns: `$stream = $this->parser->getStream()`.
(assignment_expression left: (variable_name) @var
  right: [(member_call_expression) (function_call_expression) (scoped_call_expression)] @result) @bind
; A function literal: its parameters and variables are its own (`func(w, r *http.Request)`). So,
; for what they hold, are a catch block's: `$e` is a SyntaxError in one, a RuntimeError made in
; another.
[(anonymous_function) (arrow_function) (catch_clause)] @closure
