// Force-included by the WebAssembly build (cmake/wasm32-emscripten.cmake):
// emscripten 3.1.6's libc++ 13 lacks std::bit_cast, which the compiler
// (clang 14) provides as a builtin. Nothing else is added.
#pragma once
#ifdef __cplusplus
#include <bit>
#include <type_traits>
#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 14000 && !defined(__cpp_lib_bit_cast)
namespace std {
template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> &&
         is_trivially_copyable_v<From>) constexpr To bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif
#endif
