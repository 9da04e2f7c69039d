#pragma once
// Result<T>: carom's one way to report an expected failure (a file that does
// not parse, a packet that does not verify, a flag out of range). It holds
// either a T or an Error whose message is written for the person who has to
// act on it: where, what, and why. Exceptions stay for programming errors and
// for creation-time std::invalid_argument.
//
//   Result<Map> load(...) { if (bad) return fail("maps/x.json: ..."); return map; }
//   auto map = load(path);
//   if (!map) { log(map.error().message); return; }
//   use(*map);

#include <cassert>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace carom {

struct Error {
    std::string message;
};

// `return fail("why");` converts to any Result<T>.
inline Error fail(std::string message) {
    return Error{std::move(message)};
}

template <class T>
class [[nodiscard]] Result {
    static_assert(!std::is_same_v<std::remove_cv_t<T>, Error>, "a Result cannot hold an Error");

  public:
    Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return checked_value(); }
    const T& value() const& { return const_cast<Result*>(this)->checked_value(); }
    T&& value() && { return std::move(checked_value()); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T&& operator*() && { return std::move(*this).value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const {
        assert(!ok() && "error() of a Result that holds a value");
        return std::get<1>(state_);
    }

    // The error with `context: ` in front, for a caller that knows where the
    // failure happened (a file name, a field).
    Error error_in(const std::string& context) const {
        return Error{context + ": " + error().message};
    }

  private:
    T& checked_value() {
        assert(ok() && "value() of a Result that holds an error");
        return std::get<0>(state_);
    }

    std::variant<T, Error> state_;
};

// Success or a reason: for operations that produce nothing but can fail.
template <>
class [[nodiscard]] Result<void> {
  public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), failed_(true) {}

    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const Error& error() const {
        assert(failed_ && "error() of a Result that succeeded");
        return error_;
    }
    Error error_in(const std::string& context) const {
        return Error{context + ": " + error().message};
    }

  private:
    Error error_;
    bool failed_ = false;
};

using Status = Result<void>;

}  // namespace carom
