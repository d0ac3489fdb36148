#include "DagFile.h"

#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace cilkpp::sim {

namespace {

llvm::Error error(std::string message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

// Names to node ids, with the checks both formats share.
class Builder {
public:
  explicit Builder(std::string where) : where_(std::move(where)) {}

  std::string node(const std::string &name, double work) {
    if (ids_.count(name))
      return fmt::format("node '{}' is declared twice", name);
    // (Sums of works must stay finite: critical paths, total work.)
    if (!(work > 0) || !(work <= kMaxWork))
      return fmt::format("node '{}' has work {}; work must be positive and "
                         "at most {:g}",
                         name, work, kMaxWork);
    ids_[name] = dag_.addNode(work);
    return {};
  }
  std::string edge(const std::string &from, const std::string &to) {
    for (const std::string *n : {&from, &to})
      if (!ids_.count(*n))
        return fmt::format("edge names undeclared node '{}'", *n);
    if (!edges_.insert({from, to}).second)
      return fmt::format("edge '{}' -> '{}' is declared twice", from, to);
    dag_.addEdge(ids_[from], ids_[to]);
    return {};
  }
  llvm::Expected<Dag> finish() {
    if (std::string why = dag_.validate(); !why.empty())
      return error(fmt::format("{}: error: {}", where_, why));
    return std::move(dag_);
  }

private:
  std::string where_;
  static constexpr double kMaxWork = 1e15;
  std::map<std::string, NodeId> ids_;
  std::set<std::pair<std::string, std::string>> edges_;
  Dag dag_;
};

// How deeply arrays and objects nest, strings skipped: llvm::json::parse
// recurses once per level, so a hostile file could exhaust the stack.
std::size_t nestingDepth(llvm::StringRef text) {
  std::size_t depth = 0, deepest = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

} // namespace

llvm::Expected<Dag> parseDagText(const std::string &text,
                                 const std::string &name) {
  Builder builder(name);
  std::istringstream in(text);
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    if (auto hash = line.find('#'); hash != std::string::npos)
      line.erase(hash);
    std::istringstream words(line);
    std::string keyword, a, b, extra;
    if (!(words >> keyword))
      continue;
    auto fail = [&](const std::string &what) {
      return error(fmt::format("{}:{}: error: {}", name, number, what));
    };
    std::string problem;
    if (keyword == "node") {
      double work = 0;
      if (!(words >> a >> work) || (words >> extra))
        return fail("expected 'node <name> <work>'");
      problem = builder.node(a, work);
    } else if (keyword == "edge") {
      if (!(words >> a >> b) || (words >> extra))
        return fail("expected 'edge <from> <to>'");
      problem = builder.edge(a, b);
    } else {
      return fail(fmt::format("unknown declaration '{}' (expected 'node' or "
                              "'edge')",
                              keyword));
    }
    if (!problem.empty())
      return fail(problem);
  }
  return builder.finish();
}

llvm::Expected<Dag> parseDagJson(const std::string &text,
                                 const std::string &name) {
  auto fail = [&](const std::string &what) {
    return error(fmt::format("{}: error: {}", name, what));
  };
  // The format nests three levels: {"nodes": [{...}]}, {"edges": [[a, b]]}.
  constexpr std::size_t kMaxDepth = 64;
  if (nestingDepth(text) > kMaxDepth)
    return fail(fmt::format("arrays and objects nest deeper than {} levels",
                            kMaxDepth));
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return fail(llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *nodes = root ? root->getArray("nodes") : nullptr;
  const llvm::json::Array *edges = root ? root->getArray("edges") : nullptr;
  if (!nodes)
    return fail("expected an object with a \"nodes\" array");
  // Ids may be strings or integers.
  auto idOf = [](const llvm::json::Value *v) -> std::optional<std::string> {
    if (!v)
      return std::nullopt;
    if (auto s = v->getAsString())
      return s->str();
    if (auto i = v->getAsInteger())
      return std::to_string(*i);
    return std::nullopt;
  };
  Builder builder(name);
  for (std::size_t i = 0; i < nodes->size(); ++i) {
    const llvm::json::Object *node = (*nodes)[i].getAsObject();
    auto id = node ? idOf(node->get("id")) : std::nullopt;
    auto work = node ? node->getNumber("work") : std::nullopt;
    if (!id || !work)
      return fail(fmt::format("nodes[{}]: expected {{\"id\": ..., \"work\": "
                              "<number>}}",
                              i));
    if (std::string problem = builder.node(*id, *work); !problem.empty())
      return fail(fmt::format("nodes[{}]: {}", i, problem));
  }
  for (std::size_t i = 0; edges && i < edges->size(); ++i) {
    const llvm::json::Array *edge = (*edges)[i].getAsArray();
    auto from = edge && edge->size() == 2 ? idOf(&(*edge)[0]) : std::nullopt;
    auto to = edge && edge->size() == 2 ? idOf(&(*edge)[1]) : std::nullopt;
    if (!from || !to)
      return fail(fmt::format("edges[{}]: expected [from, to]", i));
    if (std::string problem = builder.edge(*from, *to); !problem.empty())
      return fail(fmt::format("edges[{}]: {}", i, problem));
  }
  return builder.finish();
}

llvm::Expected<Dag> readDagFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return error(fmt::format("{}: error: cannot read: {}", path,
                             buffer.getError().message()));
  std::string text = (*buffer)->getBuffer().str();
  llvm::StringRef ref(path);
  return ref.ends_with(".json") ? parseDagJson(text, path)
                                : parseDagText(text, path);
}

} // namespace cilkpp::sim
