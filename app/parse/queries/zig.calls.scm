; Call sites for the call graph (app/parse/calls.py): `f(x)`, and each `.name(args)` step of
; a chain (`self.grow(1)`, `List.init(a)`, `self.handler.handle(r)`, `Pool(u8).init(a)`):
; what it is made on is the chain's text before the step (calls.py reads it).
(SuffixExpr variable_type_function: (IDENTIFIER) @callee . (FnCallArguments)) @call
(FieldOrFnCall function_call: (IDENTIFIER) @callee) @step
; Local types: `var l = List.init(a)`, `const l: List = ...`, parameters (`self: *List`).
(ParamDecl parameter: (IDENTIFIER) @var (ParamType
  (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type .)))) @bind
(ParamDecl parameter: (IDENTIFIER) @var (ParamType (PrefixTypeOp)
  (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type .)))) @bind
(VarDecl variable_type_function: (IDENTIFIER) @var
  . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type .)) . (ErrorUnionExpr)) @bind
; `var l = List.init(a)`: a type's function that makes one (types are capitalised in Zig).
((VarDecl variable_type_function: (IDENTIFIER) @var
  . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type
    . (FieldOrFnCall function_call: (IDENTIFIER)) .)) .) @bind
  (#match? @type "^[A-Z]"))
; `const P = Part(Action);`: a type a TitleCase function makes (Zig's style for those), by name.
((VarDecl variable_type_function: (IDENTIFIER) @var
  . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type
    . (FnCallArguments) .)) .) @bind
  (#match? @type "^[A-Z]"))
; `const util = @import("util.zig");` (and `...).List;`): the file it names, by that name.
((VarDecl (ErrorUnionExpr (SuffixExpr (BUILTINIDENTIFIER) @_builtin (FnCallArguments)))) @import
  (#eq? @_builtin "@import"))
; What a function declares it returns (`fn init(...) !Self`, `*Pool`, `Error!Foo`, `Server(H)`):
; a call chain's next receiver, and the type of a variable bound to the call.
(Decl (FnProto (ErrorUnionExpr) @returns .)) @method
; `var r = parse(x)`, `const q = try r.query()`: what the called function declares it returns.
(VarDecl variable_type_function: (IDENTIFIER) @var . (ErrorUnionExpr) @result .) @bind
(VarDecl variable_type_function: (IDENTIFIER) @var
  . (UnaryExpr (PrefixOp "try") (ErrorUnionExpr) @result) .) @bind
; `var s: Server(H) = ...`: the type a TitleCase function makes.
(VarDecl variable_type_function: (IDENTIFIER) @var
  . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type . (FnCallArguments) .))
  . (ErrorUnionExpr)) @bind
; `pub const Request = request.Request;`: a name for what an imported file (or a type) declares.
(VarDecl variable_type_function: (IDENTIFIER) @var
  . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER)
    . (FieldOrFnCall field_access: (IDENTIFIER)) .) @alias .) .) @bind
; A struct's fields (`pool: *Pool,`, `kv: ?*KeyValue = null,`): `self.pool.release()` calls Pool's.
(ContainerField (IDENTIFIER) @var
  . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type .))) @bind
(ContainerField (IDENTIFIER) @var
  . (PrefixTypeOp) . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type .))) @bind
(ContainerField (IDENTIFIER) @var . (PrefixTypeOp) . (PrefixTypeOp)
  . (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @type .))) @bind
