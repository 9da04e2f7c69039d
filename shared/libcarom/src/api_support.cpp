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

std::filesystem::path readable_file(const char* path) {
    std::filesystem::path file(require(path, "path"));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw Failure{CAROM_ERROR_IO, file.string() + ": not a file that can be read"};
    return file;
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
