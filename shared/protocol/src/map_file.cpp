#include "carom/protocol/map_file.hpp"

#include <flatbuffers/idl.h>

#include <fstream>
#include <sstream>

#include "carom/protocol/map_codec.hpp"

namespace carom::schema {
extern const char* const kMapSchemaText;  // schemas/map.fbs, built in
}

namespace carom::protocol {

std::variant<game::Map, std::string> parse_map_json(const std::string& json,
                                                    const std::string& where) {
    flatbuffers::Parser parser;
    if (!parser.Parse(schema::kMapSchemaText))
        return where + ": built-in map schema does not parse: " + parser.error_;
    // parser.error_ carries the line, column and field of the problem.
    if (!parser.ParseJson(json.c_str())) return where + ": " + parser.error_;
    const std::span<const std::uint8_t> bytes{parser.builder_.GetBufferPointer(),
                                              parser.builder_.GetSize()};
    auto map = map_from_binary(bytes);
    if (auto* reason = std::get_if<std::string>(&map)) return where + ": " + *reason;
    return map;
}

std::variant<game::Map, std::string> load_map_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return path.string() + ": cannot open the map file";
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return path.string() + ": read error";
    return parse_map_json(text.str(), path.string());
}

}  // namespace carom::protocol
