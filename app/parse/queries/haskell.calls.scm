; Call sites for the call graph (app/parse/calls.py). Haskell calls by application: the
; head of `f x y` (the innermost `apply`), `M.f x` through a qualified name, and a function
; handed to an operator that applies it: `f $ x`, `f <$> xs`, `f =<< m`, `m >>= f`, `x & f`,
; either side of a composition `f . g`. A name alone as a statement of a `do` block runs
; that action. A function passed as an argument (`map f xs`) is not called there. Operators
; themselves (`<>`, `++`) are not read.
(apply function: (variable) @callee) @call
(apply function: (qualified module: (module) @receiver id: (variable) @callee)) @call
; The operand is the call site: `f . g` holds two.
(infix left_operand: (variable) @callee @call operator: (operator) @_op
  (#any-of? @_op "$" "$!" "<$>" "<$" "=<<" "." "<=<" ">=>"))
(infix left_operand: (qualified module: (module) @receiver id: (variable) @callee) @call
  operator: (operator) @_op
  (#any-of? @_op "$" "$!" "<$>" "<$" "=<<" "." "<=<" ">=>"))
(infix operator: (operator) @_op right_operand: (variable) @callee @call
  (#any-of? @_op ">>=" "&" "<&>" "." "<=<" ">=>"))
(infix operator: (operator) @_op
  right_operand: (qualified module: (module) @receiver id: (variable) @callee) @call
  (#any-of? @_op ">>=" "&" "<&>" "." "<=<" ">=>"))
(exp (variable) @callee) @call
; `import M`, `import M (f, g)`, `import qualified M as X`, `import M hiding (f)`.
(import) @import
