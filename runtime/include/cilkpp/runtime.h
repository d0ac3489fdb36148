// Everything code emitted by the cilkpp compiler needs from the runtime.
#pragma once

#include "cilkpp/fields.h"
#include "cilkpp/rt/abi.h"
#include "cilkpp/rt/calls.h"
#include "cilkpp/rt/exposure.h"
#include "cilkpp/rt/held.h"
#include "cilkpp/rt/parallel_for.h"
#include "cilkpp/rt/poll.h"
#include "cilkpp/rt/signature.h"
