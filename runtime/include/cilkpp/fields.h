// cilkpp_fields(...): which members of a class travel in the canonical format
// (docs/signatures.md, "Classes that declare their fields").
//
// Aggregates are described member by member without help. A class with
// constructors or private members says which members make up its value:
//
//   class Account {
//     std::string owner_;
//     long balance_ = 0;
//    public:
//     explicit Account(std::string owner);
//     cilkpp_fields(owner_, balance_)
//   };
//
// A decoded object is value-initialised (its default constructor, which may
// be private) and then the listed members are assigned; members not listed
// keep what that constructor gave them. The macro befriends the tables the
// compiler emits and declares one member function that is never called.
#pragma once

namespace cilkpp::rt {

// The compiler specialises this for every class whose fields a frame's tables
// describe: offsets, sizes, construction and destruction of members that only
// the class and its friends may name.
template <class T>
struct record_access;

// Only names its arguments, so that the compiler can read them off the AST.
template <class... Members>
constexpr void field_list(const Members &...) noexcept {}

}  // namespace cilkpp::rt

#define cilkpp_fields(...)                                   \
  template <class>                                           \
  friend struct ::cilkpp::rt::record_access;                 \
  void cilkpp_field_list_() const noexcept { ::cilkpp::rt::field_list(__VA_ARGS__); }
