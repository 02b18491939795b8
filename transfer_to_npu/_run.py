"""transfer_to_npu._run - what `python3 -m transfer_to_npu` executes in the re-executed
interpreter (runtime preloaded): imports the bridge (environment, import hooks) and then runs
the user's target exactly as `python3 TARGET args` would: a script path (sys.argv[0] = path,
its folder first on sys.path), `-m module` or `-c code`.
"""
import os
import runpy
import sys


def main():
    args = sys.argv[1:]
    if not args:
        sys.stderr.write("usage: python3 -m transfer_to_npu._run (script | -m module | -c code) [args]\n")
        return 2
    import transfer_to_npu  # noqa: F401  (configures the process; the runtime is preloaded)
    if args[0] == "-m":
        sys.argv = [args[1]] + args[2:]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    elif args[0] == "-c":
        sys.argv = ["-c"] + args[2:]
        sys.path.insert(0, "")
        code = compile(args[1], "<string>", "exec")
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    else:
        sys.argv = list(args)
        sys.path[0] = os.path.dirname(os.path.abspath(args[0]))
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
