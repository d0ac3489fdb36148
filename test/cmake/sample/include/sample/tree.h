#pragma once

namespace sample {
// Nodes of a complete binary tree of the given depth, counted in parallel
// (in a shared library).
long tree_nodes(int depth);
}
