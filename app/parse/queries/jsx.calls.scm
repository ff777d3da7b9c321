; JSX (read with javascript.calls.scm and typescript.calls.scm for .js, .jsx and .tsx files):
; `<Editor post={post} />` renders, so calls, the component `Editor`; a lower-case tag is
; HTML's (`<div>`); `<Icons.spinner />` is a member of `Icons`.
(jsx_opening_element name: (identifier) @callee (#match? @callee "^[A-Z]")) @call
(jsx_self_closing_element name: (identifier) @callee (#match? @callee "^[A-Z]")) @call
(jsx_opening_element name: (member_expression object: (_) @receiver
  property: (property_identifier) @callee)) @call
(jsx_self_closing_element name: (member_expression object: (_) @receiver
  property: (property_identifier) @callee)) @call
