# lit configuration for the cilkpp test suite (all of test/ except unit/).
# The build tree's lit.site.cfg.py sets the paths and then loads this file.
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "cilkpp"
# Run RUN lines with the system shell: tests use pipes, cd and `;`.
config.test_format = lit.formats.ShTest(execute_external=True)

config.suffixes = [".cilkpp", ".test", ".cpp"]
# unit/ holds googletest sources (run by ctest, not lit); Inputs/ directories
# hold files that tests use; neither has RUN lines.
config.excludes = ["unit", "fuzz", "Inputs", "sample", "wrong-directory", "untranslated", "configurations", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cilkpp_obj_root, "test")

cilkpp = os.path.join(config.cilkpp_tools_dir, "cilkpp")
for tool in ["FileCheck", "not", "count"]:
    if not os.path.exists(os.path.join(config.llvm_tools_dir, tool)):
        lit_config.fatal("%s not found in %s (install llvm-19-tools)"
                         % (tool, config.llvm_tools_dir))

# The driver and the LLVM test tools come first on PATH, so RUN lines may say
# `cilkpp`, `FileCheck`, `not` and `count` as well as use the substitutions.
config.environment["PATH"] = os.pathsep.join(
    [config.cilkpp_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", "")])

config.substitutions.append(("%cilkpp", cilkpp))
config.substitutions.append(
    ("%FileCheck", os.path.join(config.llvm_tools_dir, "FileCheck")))
config.substitutions.append(("%python", sys.executable))
# test/cmake: the build tree to install from, and the CMake that built it.
config.substitutions.append(("%{cilkpp_src}", config.cilkpp_src_root))
config.substitutions.append(("%{cilkpp_build}", config.cilkpp_obj_root))
config.substitutions.append(("%{cmake}", config.cmake_command))
if shutil.which("ninja"):
    config.available_features.add("ninja")
# The debugger tests, where gdb may run programs (ptrace may be denied in
# containers).
if shutil.which("gdb"):
    try:
        probe = subprocess.run(["gdb", "-batch", "-ex", "run", "/bin/true"], capture_output=True, text=True,
                               timeout=60)
        if "exited normally" in probe.stdout + probe.stderr:
            config.available_features.add("gdb")
    except (OSError, subprocess.TimeoutExpired):
        pass

# lit starts tests from a nearly empty environment. Pass on what picks the
# host compiler (CXX, e.g. "ccache g++") and what ccache needs to work.
for var in ["CXX", "HOME"] + [v for v in os.environ if v.startswith("CCACHE_")]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Programs run by the tests choose their own worker counts; a CILKPP_NWORKERS
# or CILKPP_STATS from the caller's shell must not leak in.
for var in [v for v in os.environ if v.startswith("CILKPP_")]:
    config.environment.pop(var, None)
