#pragma once
// What every libcarom call shares: the thread's last error, and the guard
// that turns a C++ failure into a status and a message, so that nothing
// throws across the C ABI.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "carom.h"

namespace carom::capi {

// A failure with its status, thrown inside a call and caught by guarded().
struct Failure {
    carom_status status;
    std::string message;
};

// Records the message of this thread's failed call and returns `status`.
carom_status fail(carom_status status, std::string message);

// Runs `body` (which returns nothing, or throws): CAROM_OK, or the status
// and message of what it threw. std::invalid_argument and std::out_of_range
// are the game's refusals of bad arguments.
template <typename Body>
carom_status guarded(Body&& body) noexcept {
    try {
        body();
        return CAROM_OK;
    } catch (const Failure& f) {
        return fail(f.status, f.message);
    } catch (const std::invalid_argument& e) {
        return fail(CAROM_ERROR_ARGUMENT, e.what());
    } catch (const std::out_of_range& e) {
        return fail(CAROM_ERROR_ARGUMENT, e.what());
    } catch (const std::bad_alloc&) {
        return fail(CAROM_ERROR_INTERNAL, "out of memory");
    } catch (const std::exception& e) {
        return fail(CAROM_ERROR_INTERNAL, e.what());
    } catch (...) {
        return fail(CAROM_ERROR_INTERNAL, "unknown exception");
    }
}

// Throws CAROM_ERROR_ARGUMENT naming the argument when it is null.
template <typename T>
T* require(T* p, const char* what) {
    if (p == nullptr) throw Failure{CAROM_ERROR_ARGUMENT, std::string(what) + " is NULL"};
    return p;
}

// `path` as a file to read, or CAROM_ERROR_IO naming it when it is not one.
std::filesystem::path readable_file(const char* path);

// Copies `text` into a fixed char array, cut to fit, always terminated.
template <std::size_t N>
void copy_text(char (&out)[N], std::string_view text) {
    const std::size_t n = std::min(text.size(), N - 1);
    std::copy_n(text.data(), n, out);
    out[n] = '\0';
}

// The caller's buffer filled with up to `capacity` items of `items` (mapped
// by `convert`), and how many there are in *count.
template <typename Out, typename Items, typename Convert>
void fill(Out* out, std::size_t capacity, std::size_t* count, const Items& items,
          Convert&& convert) {
    require(count, "count");
    if (capacity > 0) require(out, "the buffer");
    std::size_t i = 0;
    for (const auto& item : items) {
        if (i < capacity) out[i] = convert(item);
        ++i;
    }
    *count = i;
}

}  // namespace carom::capi
