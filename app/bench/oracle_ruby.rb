# The Ruby oracle's tracer (app/bench/oracle_ruby.py): loaded into the repository's own test
# run, it writes one JSON line per distinct call that ran from the repository's files:
# [caller path, caller line, name called, method run, its path, its first line, [[path, line]
# of each method of the repository it overrides]]. A method
# written in C (or made by attr_reader) has path "" and line 0; `Foo.new` of a class with no
# `initialize` of its own names the class, where Ruby says it is defined.
require 'json'

ORACLE_ROOT = "#{File.realpath(ENV.fetch('ORACLE_ROOT'))}/".freeze
ORACLE_SEEN = {}

def oracle_relative(path)
  path&.start_with?(ORACLE_ROOT) ? path.delete_prefix(ORACLE_ROOT) : ''
end

ORACLE_CLASS_HOMES = {}.compare_by_identity # a class -> where its body is first opened

def oracle_class_home(klass)
  ORACLE_CLASS_HOMES.fetch(klass) do
    where = klass.name && Object.const_source_location(klass.name)
    where && where[0].is_a?(String) ? [oracle_relative(where[0]), where[1]] : ['', 0]
  end
rescue StandardError
  ['', 0]
end

ORACLE_OVERRIDDEN = {}

# The repository's methods of that name in the ancestors of the class that defines the one
# that ran (the ones it overrides), which a reader of the caller may name instead.
def oracle_overridden(owner, name)
  ORACLE_OVERRIDDEN[[owner, name]] ||= owner.ancestors.drop(1).filter_map do |ancestor|
    next unless ancestor.instance_methods(false).include?(name) ||
                ancestor.private_instance_methods(false).include?(name)

    path, line = ancestor.instance_method(name).source_location
    home = oracle_relative(path)
    [home, line] unless home.empty?
  end
rescue StandardError
  []
end

# Gems the tests load for their own comfort (pry, a matcher library) may be missing here: a
# require of one that is not installed is skipped, and the examples that use it fail. The
# tests run with the gems installed here: `bundler/setup` would stop them over any gem of the
# Gemfile that is not (simplecov, a linter), so it is not loaded.
module Kernel
  alias oracle_require require
  def require(name)
    return false if name == 'bundler/setup'

    oracle_require(name)
  rescue LoadError => e
    raise if name.start_with?('.', '/')

    warn("oracle: skipped a missing library: #{e.message}")
    false
  end
end

ORACLE_TRACE = TracePoint.new(:call, :c_call, :class) do |tp|
  if tp.event == :class
    home = oracle_relative(tp.path)
    ORACLE_CLASS_HOMES[tp.self] ||= [home, tp.lineno] unless home.empty?
    next
  end
  frames = caller_locations(1, 2)
  site = tp.event == :c_call ? frames[0] : frames[1]
  caller_path = oracle_relative(site && (site.absolute_path || site.path))
  next if caller_path.empty?

  above = []
  if tp.event == :call
    target = [oracle_relative(tp.path), tp.lineno]
    target = ['', 0] if target[0].empty?
    above = oracle_overridden(tp.defined_class, tp.method_id) unless target[0].empty?
  elsif tp.method_id == :new && tp.self.is_a?(Class)
    target = oracle_class_home(tp.self)
    target = ['', 0] if target[0].empty?
  else
    target = ['', 0]
  end
  method = tp.event == :c_call && tp.method_id == :new && !target[0].empty? ? tp.self.name.split('::').last : tp.method_id.to_s
  ORACLE_SEEN[[caller_path, site.lineno, tp.callee_id.to_s, method, *target, above]] = true
end

at_exit do
  ORACLE_TRACE.disable
  File.open(ENV.fetch('ORACLE_OUT'), 'w') { |out| ORACLE_SEEN.each_key { |k| out.puts(JSON.generate(k)) } }
end
ORACLE_TRACE.enable
