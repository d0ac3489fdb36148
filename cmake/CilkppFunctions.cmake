# CMake rules for .cilkpp sources (docs/cmake.md).
#
#   cilkpp_add_executable(app main.cilkpp util.cpp)
#   cilkpp_add_library(lib STATIC a.cilkpp b.cpp)
#   target_cilkpp_sources(existing_target PRIVATE x.cilkpp)
#
# Each .cilkpp file is translated to C++ (`cilkpp -E`) into the build tree and
# the translation becomes an ordinary C++ source of the target: the target's
# own compile rule builds it with the target's flags, and it shows up in
# compile_commands.json. The translation sees the target's include
# directories, compile definitions and options, including those its linked
# dependencies pass on, through a response file written at generate time. The
# translator's dependency file makes a change to any included header
# translate the file again.
#
# Per target (initialised from the variables of the same name when the target
# gets its first .cilkpp source; read when the build system is generated, so
# set_target_properties after the rules works too):
#   CILKPP_SERIAL              build the serial elision (no parallelism)
#   CILKPP_TRANSLATE_OPTIONS   extra translator flags (-fcilkpp-count-spawns, ...)
#   CILKPP_SHARED_RUNTIME      link the shared runtime (default: the static one,
#                              or the shared one for shared and module libraries)
#   CILKPP_TSAN_RUNTIME        link the runtime built for ThreadSanitizer (static
#                              or shared as above; default: when CMAKE_CXX_FLAGS
#                              has -fsanitize=thread)
#   CILKPP_ALIGN_LOOPS         compile the translations with -falign-loops=64 in
#                              Release and RelWithDebInfo, as the driver does when
#                              optimizing (default ON; GCC and Clang)
#
# Expects the targets Cilkpp::cilkpp (the driver) and Cilkpp::runtime,
# Cilkpp::runtime_shared and their _tsan counterparts: CilkppConfig.cmake imports them, the cilkpp source
# tree defines them for add_subdirectory.

include_guard(GLOBAL)

# A .cilkpp file that reaches a target another way (add_executable,
# target_sources, inside a generator expression) would be left out without
# a word: CMake skips a source of no language it knows. Once every directory
# is configured, such sources are errors.
function(_cilkpp_check_sources dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    get_target_property(translations ${target} _CILKPP_TRANSLATIONS)
    set(translated)
    foreach(translation IN LISTS translations)
      string(REPLACE "|" ";" fields "${translation}")
      list(GET fields 0 absolute)
      list(APPEND translated "${absolute}")
    endforeach()
    foreach(source IN LISTS sources)
      if(NOT source MATCHES "\\.cilkpp(>|$)")
        continue()
      endif()
      get_filename_component(absolute "${source}" ABSOLUTE BASE_DIR "${source_dir}")
      if(NOT absolute IN_LIST translated)
        message(SEND_ERROR "cilkpp: '${source}', a source of target '${target}', is not translated: add .cilkpp "
                           "files with cilkpp_add_executable, cilkpp_add_library or target_cilkpp_sources (not "
                           "add_executable, add_library or target_sources, and not inside a generator expression)")
      endif()
    endforeach()
  endforeach()
  get_property(subdirectories DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    _cilkpp_check_sources("${subdirectory}")
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _cilkpp_check_sources "${CMAKE_SOURCE_DIR}")

function(_cilkpp_split_sources cilkpp_var other_var)
  set(cilkpp_sources)
  set(other)
  foreach(arg IN LISTS ARGN)
    if(arg MATCHES "\\.cilkpp$")
      list(APPEND cilkpp_sources "${arg}")
    else()
      list(APPEND other "${arg}")
    endif()
  endforeach()
  set(${cilkpp_var} "${cilkpp_sources}" PARENT_SCOPE)
  set(${other_var} "${other}" PARENT_SCOPE)
endfunction()

# add_executable or add_library (`command`), with the .cilkpp sources among
# the arguments translated.
function(_cilkpp_add_target command name)
  _cilkpp_split_sources(cilkpp_sources other ${ARGN})
  cmake_language(CALL ${command} ${name} ${other})
  if(cilkpp_sources)
    target_cilkpp_sources(${name} PRIVATE ${cilkpp_sources})
  endif()
endfunction()

function(cilkpp_add_executable name)
  _cilkpp_add_target(add_executable ${name} ${ARGN})
endfunction()

function(cilkpp_add_library name)
  _cilkpp_add_target(add_library ${name} ${ARGN})
endfunction()

# The flags the translation of `target`'s sources takes, one per line of an
# arguments file (`cilkpp --args-file=`), as they are: generator expressions
# cannot quote them, and the driver takes each line whole (a `SHELL:` option
# is split into words, as CMake does).
function(_cilkpp_arguments_file target out_var)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/cilkpp/${target}")
  set(file "${dir}/translate-$<CONFIG>.args")
  set(p "$<TARGET_PROPERTY:${target},")
  set(includes "${p}INCLUDE_DIRECTORIES>")
  set(definitions "${p}COMPILE_DEFINITIONS>")
  set(options "${p}COMPILE_OPTIONS>")
  set(extensions "${p}CXX_EXTENSIONS>")
  set(dialect "$<IF:$<OR:$<STREQUAL:${extensions},>,$<BOOL:${extensions}>>,gnu,c>")
  # The newest standard the target asks for, by CXX_STANDARD or by a compile
  # feature (its own or one its linked libraries pass on); C++17 at least.
  set(features "${p}COMPILE_FEATURES>")
  set(standard "${p}CXX_STANDARD>")
  macro(_cilkpp_asks_for level)
    set(asks_${level} "$<OR:$<IN_LIST:cxx_std_${level},${features}>,$<STREQUAL:${standard},${level}>>")
  endmacro()
  _cilkpp_asks_for(26)
  _cilkpp_asks_for(23)
  _cilkpp_asks_for(20)
  set(level "$<IF:${asks_26},26,$<IF:${asks_23},23,$<IF:${asks_20},20,17>>>")
  set(nl "\n")
  string(CONCAT content
    "-std=${dialect}++${level}${nl}"
    # __OPTIMIZE__ means to the translator what it means to the host compiler.
    "$<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O2${nl}>"
    "$<$<BOOL:${includes}>:-I$<JOIN:${includes},${nl}-I>${nl}>"
    "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},${nl}-D>${nl}>"
    "$<$<BOOL:${options}>:$<JOIN:${options},${nl}>${nl}>"
    "$<$<BOOL:${p}CILKPP_SERIAL>>:--serial${nl}>"
    "$<$<BOOL:${p}CILKPP_TRANSLATE_OPTIONS>>:$<JOIN:${p}CILKPP_TRANSLATE_OPTIONS>,${nl}>${nl}>")
  file(GENERATE OUTPUT "${file}" CONTENT "${content}" TARGET ${target})
  set(${out_var} "${file}" PARENT_SCOPE)
endfunction()

function(target_cilkpp_sources target visibility)
  if(NOT visibility STREQUAL "PRIVATE")
    message(FATAL_ERROR "target_cilkpp_sources(${target} ${visibility} ...): only PRIVATE is supported; "
                        "each target translates its own .cilkpp files with its own flags")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "target_cilkpp_sources: no target named '${target}'")
  endif()
  if(NOT TARGET Cilkpp::cilkpp)
    message(FATAL_ERROR "target_cilkpp_sources: the cilkpp driver (Cilkpp::cilkpp) is not defined; "
                        "use find_package(Cilkpp) or add_subdirectory(<cilkpp source tree>) first")
  endif()

  # A custom command's output is a source only in the directory that adds it.
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "target_cilkpp_sources(${target} ...): call it in the directory that defines "
                        "'${target}' (${target_dir}); name the sources relative to it")
  endif()

  get_target_property(configured ${target} _CILKPP_CONFIGURED)
  if(NOT configured)
    if(NOT DEFINED CILKPP_TSAN_RUNTIME AND CMAKE_CXX_FLAGS MATCHES "-fsanitize=([^ ]*,)?thread")
      set(CILKPP_TSAN_RUNTIME ON)
    endif()
    if(NOT DEFINED CILKPP_ALIGN_LOOPS)
      set(CILKPP_ALIGN_LOOPS ON)
    endif()
    foreach(property CILKPP_SERIAL CILKPP_TRANSLATE_OPTIONS CILKPP_SHARED_RUNTIME CILKPP_TSAN_RUNTIME
                     CILKPP_ALIGN_LOOPS)
      get_target_property(value ${target} ${property})
      if(value STREQUAL "value-NOTFOUND" AND DEFINED ${property})
        set_property(TARGET ${target} PROPERTY ${property} "${${property}}")
      endif()
    endforeach()
    # A runtime per shared object would mean several schedulers in one
    # process; shared and module libraries use the shared one. Decided when
    # the build system is generated, so the property may be set later; and
    # from this target's properties (a static library's link interface is
    # otherwise evaluated on the target that links it).
    set(type "$<TARGET_PROPERTY:${target},TYPE>")
    set(shared "$<OR:$<BOOL:$<TARGET_PROPERTY:${target},CILKPP_SHARED_RUNTIME>>,$<STREQUAL:${type},SHARED_LIBRARY>,$<STREQUAL:${type},MODULE_LIBRARY>>")
    set(tsan "$<BOOL:$<TARGET_PROPERTY:${target},CILKPP_TSAN_RUNTIME>>")
    target_link_libraries(${target} PRIVATE
      "$<IF:${tsan},$<IF:${shared},Cilkpp::runtime_tsan_shared,Cilkpp::runtime_tsan>,$<IF:${shared},Cilkpp::runtime_shared,Cilkpp::runtime>>")
    # The translation is C++17 or later.
    target_compile_features(${target} PRIVATE cxx_std_17)
    _cilkpp_arguments_file(${target} arguments)
    set_target_properties(${target} PROPERTIES _CILKPP_CONFIGURED TRUE _CILKPP_ARGUMENTS_FILE "${arguments}")
  endif()
  get_target_property(arguments ${target} _CILKPP_ARGUMENTS_FILE)

  # A new driver (rebuilt, or installed again) translates everything again;
  # in the build tree it is also built first.
  set(driver_dependency "$<TARGET_FILE:Cilkpp::cilkpp>")
  get_target_property(driver_imported Cilkpp::cilkpp IMPORTED)
  if(NOT driver_imported)
    get_target_property(driver_target Cilkpp::cilkpp ALIASED_TARGET)
    list(APPEND driver_dependency ${driver_target})
  endif()

  foreach(source IN LISTS ARGN)
    get_filename_component(absolute "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${absolute}")
    set_property(TARGET ${target} APPEND PROPERTY _CILKPP_TRANSLATIONS "${absolute}|${relative}")
    # Editors and `make` show the .cilkpp file with the target's sources.
    set_source_files_properties("${absolute}" PROPERTIES HEADER_FILE_ONLY TRUE)
    target_sources(${target} PRIVATE "${absolute}")
  endforeach()
  set_property(TARGET ${target} PROPERTY _CILKPP_DRIVER_DEPENDENCY "${driver_dependency}")
  # The commands are added once the directory has defined all the target's
  # sources: they wait for those generated (a header that a custom command of
  # the target writes may be included), as the target's own compiles do.
  get_target_property(deferred ${target} _CILKPP_DEFERRED)
  if(NOT deferred)
    set_property(TARGET ${target} PROPERTY _CILKPP_DEFERRED TRUE)
    # (A deferred call's arguments are evaluated when it runs: the target's
    # name is spelled out now.)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _cilkpp_add_translations [==[${target}]==])")
  endif()
endfunction()

# The command that translates `absolute` into `output` with the flags of
# `arguments`, and the translation as a source of the target (for the
# configurations `condition` holds in).
function(_cilkpp_add_translation target absolute relative output arguments condition)
  get_target_property(driver_dependency ${target} _CILKPP_DRIVER_DEPENDENCY)
  get_filename_component(output_dir "${output}" DIRECTORY)
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${output_dir}"
    COMMAND "$<TARGET_FILE:Cilkpp::cilkpp>" -E "${absolute}" -o "${output}"
            -MD -MF "${output}.d" -MQ "${output}" "--args-file=${arguments}"
    DEPENDS "${absolute}" "${arguments}" ${driver_dependency} ${ARGN}
    DEPFILE "${output}.d"
    COMMENT "Translating ${relative} (${target})"
    VERBATIM)
  # A kernel's inner loop across a 64-byte fetch block ran up to 1.8 times
  # slower (docs/performance.md, "Loop alignment"); the driver's -O2 aligns
  # loops, and so do the optimised configurations here. (A source's options
  # come after the target's: a target that wants its own -falign-loops sets
  # CILKPP_ALIGN_LOOPS off.)
  set(align "$<AND:$<BOOL:$<TARGET_PROPERTY:${target},CILKPP_ALIGN_LOOPS>>,$<CONFIG:Release,RelWithDebInfo>,$<CXX_COMPILER_ID:GNU,Clang,AppleClang>>")
  set(outputs "${output}")
  if(output MATCHES "\\$<CONFIG>")
    set(outputs)
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
      string(REPLACE "$<CONFIG>" "${config}" config_output "${output}")
      list(APPEND outputs "${config_output}")
    endforeach()
  endif()
  set_property(SOURCE ${outputs} APPEND PROPERTY COMPILE_OPTIONS "$<${align}:-falign-loops=64>")
  if(condition STREQUAL "1")
    target_sources(${target} PRIVATE "${output}")
  else()
    target_sources(${target} PRIVATE "$<${condition}:${output}>")
  endif()
endfunction()

function(_cilkpp_add_translations target)
  set(generated)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    get_source_file_property(is_generated "${source}" GENERATED)
    if(is_generated)
      get_filename_component(absolute "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
      list(APPEND generated "${absolute}")
    endif()
  endforeach()
  get_target_property(arguments ${target} _CILKPP_ARGUMENTS_FILE)
  get_target_property(translations ${target} _CILKPP_TRANSLATIONS)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  foreach(translation IN LISTS translations)
    string(REPLACE "|" ";" fields "${translation}")
    list(GET fields 0 absolute)
    list(GET fields 1 relative)
    string(REPLACE "../" "__/" generated_name "${relative}")
    set(base "${CMAKE_CURRENT_BINARY_DIR}/cilkpp/${target}")
    if(NOT multi_config)
      _cilkpp_add_translation(${target} "${absolute}" "${relative}" "${base}/${generated_name}.cpp" "${arguments}" 1
                              ${generated})
    elseif(NOT CMAKE_CROSS_CONFIGS)
      # A translation per configuration: it depends on the configuration's
      # flags (-O2 defines __OPTIMIZE__).
      _cilkpp_add_translation(${target} "${absolute}" "${relative}" "${base}/$<CONFIG>/${generated_name}.cpp"
                              "${arguments}" 1 ${generated})
    else()
      # (CMake 3.25 crashes generating a DEPFILE named with $<CONFIG> for
      # cross-configuration builds: one command per configuration, named
      # outright.)
      foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
        string(REPLACE "$<CONFIG>" "${config}" config_arguments "${arguments}")
        _cilkpp_add_translation(${target} "${absolute}" "${relative}" "${base}/${config}/${generated_name}.cpp"
                                "${config_arguments}" "$<CONFIG:${config}>" ${generated})
      endforeach()
    endif()
  endforeach()
endfunction()
