; Call sites and bases for the call graph, by name (app/parse/calls.py).
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression argument: (_) @receiver
  field: (field_identifier) @callee)) @call
(call_expression function: (qualified_identifier scope: (_) @receiver
  name: (identifier) @callee)) @call
(call_expression function: (_) @dynamic) @call
; `using std::fma;`: the standard library's name, visible beside the project's (imports.py).
(using_declaration) @import
; Bases, templates too (`class Option : public OptionBase<Option>`, read as `OptionBase`).
(class_specifier (base_class_clause [(type_identifier) (template_type)
  (qualified_identifier name: [(type_identifier) (template_type)])] @base)) @class
(struct_specifier (base_class_clause [(type_identifier) (template_type)
  (qualified_identifier name: [(type_identifier) (template_type)])] @base)) @class
; `using detail::buffer<T>::append;` in a class: the base's overloads of `append` beside its own.
(class_specifier body: (field_declaration_list (using_declaration) @using_member)) @using_owner
(struct_specifier body: (field_declaration_list (using_declaration) @using_member)) @using_owner
; Local types: `Calc c;`, `Calc c(1);`, `CLI::App app{"x"};`, `Calc* c = ...;`, `void f(Calc& c)`;
; a type any number of namespaces deep (`spdlog::details::os::clock c;`) too.
(declaration type: [(type_identifier) (qualified_identifier)] @type
  declarator: [(identifier) (pointer_declarator declarator: (identifier))
  (reference_declarator (identifier))] @var) @bind
(declaration type: [(type_identifier) (qualified_identifier)] @type
  declarator: (init_declarator declarator: [(identifier)
  (pointer_declarator declarator: (identifier)) (reference_declarator (identifier))] @var)) @bind
(parameter_declaration type: [(type_identifier) (qualified_identifier) (template_type)] @type
  declarator: [(identifier) (pointer_declarator declarator: (identifier))
  (reference_declarator (identifier))] @var) @bind
(for_range_loop type: [(type_identifier) (qualified_identifier name: (type_identifier))] @type
  declarator: [(identifier) (pointer_declarator declarator: (identifier))
  (reference_declarator (identifier))] @var) @bind  ; for (const Calc& c : calcs)
; `auto l = std::make_shared<Logger>(...)`, `auto p = new Logger(...)`: the type made; `auto r =
; details::registry::instance()`, `auto opt = app->get_option("x")`: what the function returns.
(declaration type: (placeholder_type_specifier) declarator: (init_declarator
  declarator: [(identifier) (pointer_declarator declarator: (identifier))] @var
  value: (call_expression function: [
    (qualified_identifier name: (template_function name: (identifier) @_maker
      arguments: (template_argument_list . (type_descriptor) @type)))
    (template_function name: (identifier) @_maker
      arguments: (template_argument_list . (type_descriptor) @type))]))
  (#any-of? @_maker "make_shared" "make_unique")) @bind
(declaration type: (placeholder_type_specifier) declarator: (init_declarator
  declarator: [(identifier) (pointer_declarator declarator: (identifier))] @var
  value: (new_expression type: (_) @type))) @bind
(declaration type: (placeholder_type_specifier) declarator: (init_declarator
  declarator: [(identifier) (pointer_declarator declarator: (identifier))] @var
  value: (call_expression function: [(identifier) (qualified_identifier) (field_expression)])
  @result)) @bind
; A class's fields: `Option *help_ptr_{nullptr};`, `App *parent_ = nullptr;`, `Formatter fmt_;`,
; `std::shared_ptr<Formatter> fmt_;` (what a smart pointer points to).
(field_declaration type: [(type_identifier) (qualified_identifier) (template_type)] @type
  declarator: [(field_identifier) (pointer_declarator declarator: (field_identifier))
  (reference_declarator (field_identifier))] @var) @bind
; What a function or method returns (`Option *get_option(...)`, `App *App::add_subcommand(...)`):
; a call chain's next receiver.
(function_definition type: [(type_identifier) (template_type) (qualified_identifier)] @returns
  declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator))
  (reference_declarator (function_declarator))]) @method
; Type aliases: `using Option_p = std::unique_ptr<Option>;`, `typedef Foo Bar;`.
(alias_declaration name: (type_identifier) @type_alias type: (type_descriptor) @aliased)
(type_definition type: (_) @aliased declarator: [(type_identifier) @type_alias
  (pointer_declarator declarator: (type_identifier) @type_alias)])
; A loop's items whose type is left to the compiler: `for (auto &opt : need_options_)`.
(for_range_loop type: (placeholder_type_specifier) declarator: [(identifier)
  (reference_declarator (identifier)) (pointer_declarator declarator: (identifier))] @var
  right: (_) @element_of) @bind
; A map's items taken apart: `for (auto &[name, lg] : loggers_)`, the second name its value.
(for_range_loop type: (placeholder_type_specifier) declarator: [
  (structured_binding_declarator . (identifier) . (identifier) @var .)
  (reference_declarator (structured_binding_declarator . (identifier) . (identifier) @var .))]
  right: (_) @pair_of) @bind
; A template's type parameters, inside what it declares: `Policy::value(x)` in `template <class
; Policy>` calls whatever type the template is given.
(template_declaration parameters: (template_parameter_list [
  (type_parameter_declaration (type_identifier) @var)
  (optional_type_parameter_declaration name: (type_identifier) @var)
  (variadic_type_parameter_declaration (type_identifier) @var)])
  [(class_specifier) (struct_specifier) (function_definition) (declaration)] @bind) @template
