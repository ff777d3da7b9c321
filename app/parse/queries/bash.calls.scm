; Call sites for the call graph (app/parse/calls.py): a command whose name is a plain word
; (`build_index "$dir"`), which may name a function defined in the project, or a path whose
; last part is written out (`"$(dirname "$0")/prune-logs"`), which may name one of its scripts.
; The shell's own statements (`return 1`, `local x`, `export X`, `shift`, `set -e`) are no call
; sites, as Python's `return` is none (`#not-match?`: the bindings do not read `#not-any-of?`).
(command name: (command_name (word) @callee)
  (#not-match? @callee "^(return|exit|break|continue|local|export|readonly|declare|typeset|shift|set|unset|trap|:|true|false)$")) @call
(command
  name: (command_name [(string) (concatenation)] @callee
    (#match? @callee "/[A-Za-z0-9_.+-]+\"?$"))) @call
; `exec rbenv-versions --bare`, `command git status`: the program they run (not `command -v`).
(command
  name: (command_name (word) @_runner (#any-of? @_runner "exec" "command"))
  .
  argument: (word) @callee @call
  (#not-match? @callee "^-"))
(command
  name: (command_name (word) @_runner (#any-of? @_runner "exec" "command"))
  .
  argument: [(string) (concatenation)] @callee @call
  (#match? @callee "/[A-Za-z0-9_.+-]+\"?$"))
