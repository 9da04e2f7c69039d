// libFuzzer's entry for one target: CAROM_FUZZ_ENTRY names its function.
#include <cstddef>
#include <cstdint>

#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return carom::fuzz::CAROM_FUZZ_ENTRY({data, size});
}
