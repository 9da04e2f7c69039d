// Maps from files and text: carom's JSON and HaxBall stadiums (native
// builds only: the parsers need the compiled FlatBuffers library).
#include <string>

#include "api_support.hpp"
#include "carom/maps/map_file.hpp"
#include "handles.hpp"

using namespace carom;
using namespace carom::capi;

extern "C" {

carom_status carom_map_load(const char* path, carom_map** out) {
    return make_map(out, [&] { return take_map(maps::load_map_file(readable_file(path))); });
}

carom_status carom_map_parse_json(const char* text, size_t size, carom_map** out) {
    return make_map(out, [&] {
        return take_map(maps::parse_map_json(std::string(require(text, "text"), size), "json"));
    });
}

carom_status carom_map_parse_hbs(const char* text, size_t size, carom_map** out) {
    return make_map(out, [&] {
        return take_map(maps::parse_map_hbs({require(text, "text"), size}, "hbs"));
    });
}

}  // extern "C"
