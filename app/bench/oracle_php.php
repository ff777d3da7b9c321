<?php
// The PHP oracle's bootstrap (app/bench/oracle_php.py), run by PHPUnit before the repository's
// tests under Xdebug's function trace: it loads the repository's classes (its composer
// autoloader when it has one, else its composer.json's psr-4 and psr-0 folders and files), leaves
// PHPUnit's own calls out of the trace, and at the end writes where each method of the
// repository's classes (inherited ones too) and each function is defined.
$root = rtrim((string) getenv('ORACLE_ROOT'), '/');
if (function_exists('xdebug_set_filter') && class_exists(\PHPUnit\Framework\TestCase::class)) {
    $phpunit = dirname((new ReflectionClass(\PHPUnit\Framework\TestCase::class))->getFileName(), 3);
    xdebug_set_filter(XDEBUG_FILTER_TRACING, XDEBUG_PATH_EXCLUDE, [$phpunit, "$root/vendor"]);
}
register_shutdown_function(function () use ($root) {
    $where = [];
    foreach (array_merge(get_declared_classes(), get_declared_interfaces(), get_declared_traits()) as $name) {
        $class = new ReflectionClass($name);
        if (!$class->isUserDefined()) {
            continue;  // a class of another package or made by eval() (a test's mock) may
        }              // still override the repository's methods
        if ($class->isAnonymous()) {  // named as Xdebug names it
            $name = "{anonymous-class:{$class->getFileName()}:{$class->getStartLine()}-{$class->getEndLine()}}";
        }
        $where["class $name"] = [$class->getFileName(), $class->getStartLine(), []];
        $ancestors = array_merge($class->getInterfaces(), []);
        for ($parent = $class->getParentClass(); $parent; $parent = $parent->getParentClass()) {
            $ancestors[] = $parent;
        }
        foreach ($class->getMethods() as $method) {
            // The declarations this method overrides or implements, which a type checker
            // names for a call on a base or interface type.
            $declared = $method->getDeclaringClass()->getName();
            $above = [];
            foreach ($ancestors as $ancestor) {
                $name_here = $ancestor->getName();
                if ($name_here !== $declared && $ancestor->hasMethod($method->getName())) {
                    $there = $ancestor->getMethod($method->getName());
                    if ($there->getDeclaringClass()->getName() === $name_here) {
                        $above[] = [(string) $there->getFileName(), $there->getStartLine()];
                    }
                }
            }
            $where["$name::{$method->getName()}"] = [(string) $method->getFileName(), $method->getStartLine(), $above];
        }
    }
    foreach (get_defined_functions()['user'] as $name) {
        $function = new ReflectionFunction($name);
        $where[$function->getName()] = [(string) $function->getFileName(), $function->getStartLine(), []];
    }
    file_put_contents((string) getenv('ORACLE_DEFINITIONS'), json_encode($where));
});
if (is_file("$root/vendor/autoload.php")) {
    require "$root/vendor/autoload.php";
} else {
    $composer = json_decode((string) @file_get_contents("$root/composer.json"), true) ?: [];
    $map = [];  // [prefix, folder, psr-0: the prefix is part of the file's path]
    foreach (['autoload', 'autoload-dev'] as $part) {
        foreach (['psr-4', 'psr-0'] as $standard) {
            foreach (($composer[$part][$standard] ?? []) as $prefix => $dirs) {
                foreach ((array) $dirs as $dir) {
                    $map[] = [$prefix, rtrim("$root/$dir", '/') . '/', $standard === 'psr-0'];
                }
            }
        }
    }
    spl_autoload_register(function ($class) use ($map) {
        foreach ($map as [$prefix, $dir, $whole]) {
            if ($prefix === '' || strncmp($class, $prefix, strlen($prefix)) === 0) {
                $rest = $whole ? $class : substr($class, strlen($prefix));
                $file = $dir . str_replace(['\\', $whole ? '_' : '\\'], '/', $rest) . '.php';
                if (is_file($file)) {
                    require $file;
                    return;
                }
            }
        }
    });
    foreach (['autoload', 'autoload-dev'] as $part) {
        foreach (($composer[$part]['files'] ?? []) as $file) {
            require_once "$root/$file";
        }
    }
}
