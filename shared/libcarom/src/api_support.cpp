#include "api_support.hpp"

#include <utility>

namespace carom::capi {
namespace {
thread_local std::string last_error;
}  // namespace

carom_status fail(carom_status status, std::string message) {
    last_error = std::move(message);
    return status;
}

}  // namespace carom::capi

extern "C" {

uint32_t carom_abi_version(void) {
    return CAROM_ABI_VERSION;
}

const char* carom_version(void) {
    return CAROM_VERSION;
}

const char* carom_last_error(void) {
    return carom::capi::last_error.c_str();
}
}
