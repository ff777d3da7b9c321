; One section per top-level key.
(stream (document (block_node (block_mapping
  (block_mapping_pair key: (_) @name) @definition.section))))

(comment) @comment
