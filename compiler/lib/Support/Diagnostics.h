// Every diagnostic the translator can emit, reported through Clang's
// DiagnosticsEngine so they print as file:line:col with a caret.
#pragma once

#include "clang/Basic/Diagnostic.h"

namespace cilkpp::diag {

enum ID {
  KeywordInMacro,
  KeywordOutsideFunction,
  KeywordInLambda,
  CilkNotOnFunction,
  SpawnNotCall,
  SpawnCalleeUnsupported,
  SpawnPositionUnsupported,
  SpawnTargetUnsupported,
  SpawnTargetTypeMismatch,
  SyncNotStatement,
  ProcedureKindUnsupported,
  ConstructUnsupported,
  ContinuationInUnsupported,
  LiveVariableUnsupported,
  LiveRangeForUnsupported,
  NoteContinuationPoint,
  NoteClosureTypeInTemplate,
  NoteBindingsInTemplate,
  NoteHiddenMemberType,
  NoteLocalClassInMember,
  NoteLocalTypeStays,
  NoteLambdaStaysUnnamed,
  ReturnTypeUnsupported,
  LambdaCapturesFrameVariable,
  CfgUnavailable,
  GrainsizeMalformed,
  GrainsizeNotBeforeLoop,
  GrainsizeOperator,
  UnknownCilkPragma,
  LoopShapeUnsupported,
  LoopBodyLeaves,
  LoopVariableModified,
  KeywordInLoopBody,
  ScopeNotBlock,
  ScopeLeft,
  ReadOfOutstandingTarget,
  OutstandingTargetDestroyed,
  OutstandingTargetOutOfScope,
  GotoAcrossContinuation,
  ImmovableParameter,
  ImmovableArgument,
  TemplateArgumentHidden,
  ReducerUnsupported,
  KeywordInHeader,
  ThrowingDestructorInFrame,
  RuntimeNamespaceTaken,
  IncludedCilkppFile,
  NoteBindingToTemporary,
  LoopPragmaOnCilkFor,
  RangeLoopUnsupported,
  NumIDs
};

clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags, clang::SourceLocation Loc, ID Which);

}  // namespace cilkpp::diag
