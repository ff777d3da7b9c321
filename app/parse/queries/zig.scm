; `const Name = struct { ... };` is a type (a tagged `union(enum)` a struct, patterns in order); `fn` a function (a method inside a type);
; `test "name" { ... }` a test (its name is `test "name"`; paths.in_test_module sees it).
(Decl (FnProto function: (IDENTIFIER) @name)) @definition.function
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType ["struct" "union" "opaque"])))))) @definition.struct
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType "enum")))))) @definition.enum
(Decl (VarDecl variable_type_function: (IDENTIFIER) @name
  (ErrorUnionExpr (SuffixExpr (ErrorSetDecl))))) @definition.enum
(TestDecl [(STRINGLITERALSINGLE) (IDENTIFIER)] @name) @definition.function

(doc_comment) @comment
(container_doc_comment) @comment
(line_comment) @comment
