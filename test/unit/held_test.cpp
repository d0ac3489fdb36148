// Held temporaries (held.h): a spawn statement's temporaries die with the
// statement unless a stolen frame took them over, then at its next sync;
// each exactly once, latest first.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cilkpp/runtime.h"
#include "runtime.h"

namespace {

using namespace cilkpp::rt;

std::vector<std::string> destroyed;

struct Noted {
  std::string name;
  explicit Noted(std::string n) : name(std::move(n)) {}
  Noted(const Noted &) = delete;  // made in place, never copied or moved
  ~Noted() { destroyed.push_back(name); }
};

struct alignas(128) OverAligned {
  char bytes[128];
};

class Held : public ::testing::Test {
 protected:
  Held() : w(Runtime::instance(), 0) { destroyed.clear(); }
  Worker w;
  HeldTemporaries frame;
};

TEST_F(Held, TemporariesDieWithTheStatementLatestFirst) {
  {
    HeldScope held(&w);
    const Noted &a = held.hold<Noted>([] { return Noted("a"); });
    Noted &&b = held.hold<Noted>([] { return Noted("b"); });
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(b.name, "b");
    EXPECT_TRUE(destroyed.empty());
  }
  EXPECT_EQ(destroyed, (std::vector<std::string>{"b", "a"}));
}

TEST_F(Held, TakenBackFromTheFrameTheyDieWithTheStatement) {
  {
    HeldScope earlier(&w);
    earlier.hold<Noted>([] { return Noted("earlier"); });
    earlier.lend(frame);
    earlier.disown();  // stolen: the frame keeps it
  }
  {
    HeldScope held(&w);
    held.hold<Noted>([] { return Noted("x"); });
    held.lend(frame);
    held.take_back();
  }
  EXPECT_EQ(destroyed, (std::vector<std::string>{"x"}));
  frame.release(&w);
  EXPECT_EQ(destroyed, (std::vector<std::string>{"x", "earlier"}));
  EXPECT_EQ(frame.newest, nullptr);
}

TEST_F(Held, LentAndDisownedTheyLiveUntilTheFrameReleasesThem) {
  const Noted *kept = nullptr;
  {
    HeldScope held(&w);
    const Noted &k = held.hold<Noted>([] { return Noted("kept"); });
    kept = &k;
    held.hold<Noted>([] { return Noted("later"); });
    held.lend(frame);
    held.disown();
  }
  EXPECT_TRUE(destroyed.empty());
  EXPECT_EQ(kept->name, "kept");
  frame.release(&w);
  EXPECT_EQ(destroyed, (std::vector<std::string>{"later", "kept"}));
}

TEST_F(Held, AThrowingConstructionLeavesTheOthersToTheStatement) {
  try {
    HeldScope held(&w);
    held.hold<Noted>([] { return Noted("first"); });
    held.hold<Noted>([]() -> Noted { throw std::runtime_error("second"); });
    FAIL() << "no exception";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "second");
  }
  EXPECT_EQ(destroyed, (std::vector<std::string>{"first"}));
}

TEST_F(Held, TheTypeComesFromTheLambdaWhenNotGiven) {
  {
    HeldScope held(&w);
    Noted &&n = held.hold([] { return Noted("deduced"); });
    EXPECT_EQ(n.name, "deduced");
  }
  EXPECT_EQ(destroyed, (std::vector<std::string>{"deduced"}));
}

TEST_F(Held, ScalarsAndOverAlignedTypesAreHeld) {
  HeldScope held(&w);
  const long &n = held.hold<long>([] { return 42L; });
  OverAligned &&o = held.hold<OverAligned>([] { return OverAligned{}; });
  EXPECT_EQ(n, 42);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&o) % alignof(OverAligned), 0u);
}

}  // namespace
