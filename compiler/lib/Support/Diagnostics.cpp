#include "Support/Diagnostics.h"

#include "clang/Basic/DiagnosticIDs.h"

namespace cilkpp::diag {
namespace {

struct Description {
  clang::DiagnosticsEngine::Level Level;
  const char *Format;
};

// Indexed by ID. Every message starts with "cilkpp:" so users can tell the
// translator's diagnostics from Clang's own.
constexpr Description Descriptions[NumIDs] = {
    {clang::DiagnosticsEngine::Error, "cilkpp: keyword '%0' inside a macro is not supported"},
    {clang::DiagnosticsEngine::Error, "cilkpp: '%0' outside of a function body"},
    {clang::DiagnosticsEngine::Warning,
     "cilkpp: '%0' inside this lambda runs serially: %1, so it does not become a cilk procedure in this version "
     "(its calls still complete before it returns)"},
    {clang::DiagnosticsEngine::Error, "cilkpp: 'cilk' may only be applied to a function declaration"},
    {clang::DiagnosticsEngine::Error, "cilkpp: '%0' must be followed by a function call"},
    {clang::DiagnosticsEngine::Error, "cilkpp: spawning %0 is not supported yet"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: '%0' is only supported as a statement 'x = spawn f(...);', 'T x = spawn f(...);' or "
     "'spawn f(...);' (not supported yet: %1)"},
    {clang::DiagnosticsEngine::Error, "cilkpp: this spawn target is not supported (%0)"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: spawn result of type %0 assigned to %1 of type %2; not supported yet (spawn into a local of type %0 "
     "and assign that to the target after the sync)"},
    {clang::DiagnosticsEngine::Error, "cilkpp: '%0' must be used as a statement"},
    {clang::DiagnosticsEngine::Error, "cilkpp: %0 as a cilk procedure is not supported yet"},
    {clang::DiagnosticsEngine::Error, "cilkpp: %0 in a cilk procedure is not supported yet"},
    {clang::DiagnosticsEngine::Error, "cilkpp: a continuation point (spawn or sync) inside %0 is not supported yet"},
    {clang::DiagnosticsEngine::Error, "cilkpp: variable '%0' of type %1 is live across a %2; not supported yet"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: the %select{range|iterator|end iterator}0 of this range-based for loop, of type %1, is live across a "
     "%2; not supported yet"},
    {clang::DiagnosticsEngine::Note, "cilkpp: %0 here"},
    {clang::DiagnosticsEngine::Note,
     "cilkpp: a template instantiated with %select{a lambda's type|a type local to a function|the type of a lambda "
     "at namespace scope}0: its translation cannot name that type; %select{a lambda passed from a function becomes a "
     "named class, but not one in a member of a class template defined outside its class, one capturing"
     " '*this' or an array by copy, or one written in a macro: pass a named function object or "
     "a std::function instead|one declared in "
     "an ordinary function moves out of it, but not one using other names of its function or declared in a member "
     "function or a template: declare the type outside the function|from C++20 on it is named through its variable (-std=c++20), or pass a named "
     "function object}0"},
    {clang::DiagnosticsEngine::Note,
     "cilkpp: %select{structured bindings in a template live across a spawn or sync only when every instantiation "
     "in the file decomposes the same way (all with get<I>, or all into the same data members)|structured bindings "
     "of bit-fields, of unnamed members and of arrays of arrays do not live across a spawn or sync (copy the members "
     "into variables of their own)}0"},
    {clang::DiagnosticsEngine::Note,
     "cilkpp: %0 is a %select{private|protected}1 member of its class, and the frame that holds the variable is "
     "declared outside the class (it can name the type of a variable initialized by a call of a public function "
     "that returns it: 'auto v = obj.f(...)')"},
    {clang::DiagnosticsEngine::Note,
     "cilkpp: %0 is a class local to a member function, which stays in it (its members may use the class's "
     "private names): declare it in the class or outside the function"},
    {clang::DiagnosticsEngine::Note,
     "cilkpp: %0 is declared in the function and stays in it: a type declared in a function moves out of it, but "
     "not one that uses other names of its function (its variables, types or enumerators), one declared by a macro, "
     "one in a function with a using-directive, using-declaration or namespace alias, or an unnamed enum with a "
     "fixed underlying type: declare it outside the function"},
    {clang::DiagnosticsEngine::Note, "cilkpp: this lambda does not become a named class: %0"},
    {clang::DiagnosticsEngine::Error, "cilkpp: cilk procedure returning %0 is not supported yet (%1)"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: lambda capturing array '%0' by copy, which lives across a continuation point, is not supported yet"},
    {clang::DiagnosticsEngine::Error, "cilkpp: could not build the control-flow graph of '%0'"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: expected '#pragma cilk grainsize(N)' with N a positive integer literal"},
    {clang::DiagnosticsEngine::Error, "cilkpp: '#pragma cilk grainsize' must immediately precede a cilk_for"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: the grain size cannot be given with _Pragma; write '#pragma cilk grainsize(N)' on its own line "
     "before the cilk_for"},
    {clang::DiagnosticsEngine::Error, "cilkpp: unknown pragma '#pragma cilk %0' (the one cilk pragma is 'grainsize')"},
    {clang::DiagnosticsEngine::Error, "cilkpp: %0 (cilk_for needs the form 'cilk_for (T i = first; i OP bound; "
                                      "STEP)' with OP one of < <= > >= != and STEP one of ++i i++ --i i-- i += n "
                                      "i -= n)"},
    {clang::DiagnosticsEngine::Error, "cilkpp: %0 cannot leave a cilk_for body"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: the loop variable '%0' of a cilk_for must not be modified in its body"},
    {clang::DiagnosticsEngine::Warning,
     "cilkpp: '%0' inside this cilk_for body runs serially: %1, so it does not become a cilk procedure in this "
     "version (the loop's iterations still run in parallel)"},
    {clang::DiagnosticsEngine::Error, "cilkpp: '%0' must be followed by a block"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: %0 out of a '%1' block is not supported yet (it would skip the block's implicit sync)"},
    {clang::DiagnosticsEngine::Warning,
     "cilkpp: '%0' is %select{read|written}1 before a sync, while the spawned child that writes it may still be running"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: '%0' is destroyed here, before a sync, while the spawned child that assigns %select{it|a part of it}1 "
     "may still be running (sync before the end of its scope, or spawn into an element of a container that outlives "
     "the sync)"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: '%0' goes out of scope here, before a sync, while the spawned child that assigns %select{it|a part of "
     "it}1 may still be running (the child would write into the storage its next declaration reuses: sync before "
     "the end of its scope, or spawn into an element of a container that outlives the sync)"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: 'goto' jumps across a continuation point (spawn or sync); not supported"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: parameter '%0' of type %1 moves into the procedure's frame, but %1 has no usable move or copy "
     "constructor; not supported (take it by reference)"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: argument of type %0 passed by value to a spawned call is evaluated before the spawn and then moved "
     "into the parameter, but %0 has no usable move or copy constructor; not supported (pass it by reference)"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: a cilk procedure instantiated with '%0', a private or protected member type, among its template "
     "arguments is not supported: its translation names the type outside its class (make the type public)"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: reducers ('%0') are not supported yet; the serial elision (--serial) builds this program with an "
     "ordinary variable in its place"},
    {clang::DiagnosticsEngine::Warning,
     "cilkpp: '%0' in a header runs as its serial elision, as do the header's other keywords: only the .cilkpp "
     "file is translated (code that spawns runs in parallel when it is written there)"},
    {clang::DiagnosticsEngine::Warning,
     "cilkpp: '%0' lives in the frame across a spawn or sync, and the destructor of %1 may throw: an exception "
     "thrown by it there ends the program (std::terminate), where the serial program would propagate it"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: a global named 'cilkpp' clashes with the runtime's namespace '::cilkpp', which the translated "
     "program names; rename it or move it into a namespace"},
    {clang::DiagnosticsEngine::Warning,
     "cilkpp: '%0' is read as a header: only the file given to cilkpp is translated, so its 'spawn', 'sync' and "
     "'cilk' are not keywords and its cilk_spawn and cilk_sync run as their serial elision (compile it as a file of "
     "its own, with a header for what it declares)"},
    {clang::DiagnosticsEngine::Note,
     "cilkpp: the structured binding '%0' refers to the temporary that its 'get' returns by value, which no frame "
     "can hold; declare a variable initialized from that 'get' instead"},
    {clang::DiagnosticsEngine::Error,
     "cilkpp: a pragma on a cilk_for ('GCC unroll', 'GCC ivdep', 'clang loop', ...) is not supported: its "
     "iterations run as calls of its body, in parallel, and no loop is left for the pragma; put it on a loop inside "
     "the body"},
    {clang::DiagnosticsEngine::Error, "cilkpp: a range-based '%0' %1"},
};

}  // namespace

clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags, clang::SourceLocation Loc, ID Which) {
  const Description &D = Descriptions[Which];
  // Custom diagnostics bypass Clang's warning options, so -w and -Werror
  // (which the driver passes on from the host compiler's flags) apply here.
  clang::DiagnosticsEngine::Level Level = D.Level;
  if (Level == clang::DiagnosticsEngine::Warning && Diags.getIgnoreAllWarnings())
    Level = clang::DiagnosticsEngine::Ignored;
  else if (Level == clang::DiagnosticsEngine::Warning && Diags.getWarningsAsErrors())
    Level = clang::DiagnosticsEngine::Error;
  unsigned CustomID =
      Diags.getDiagnosticIDs()->getCustomDiagID(static_cast<clang::DiagnosticIDs::Level>(Level), D.Format);
  return Diags.Report(Loc, CustomID);
}

}  // namespace cilkpp::diag
