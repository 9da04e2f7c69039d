#include "carom/maps/map_file.hpp"

#include <flatbuffers/idl.h>

#include <fstream>
#include <string>
#include <system_error>

#include "carom/protocol/map_codec.hpp"
#include "carom/stadium/hbs.hpp"

namespace carom::schema {
extern const char* const kMapSchemaText;  // schemas/map.fbs, built in
}

namespace carom::maps {

namespace {
std::string too_large(const std::string& where, std::uintmax_t size) {
    return where + ": " + std::to_string(size) + " bytes, larger than a map file may be (" +
           std::to_string(kMaxMapFileBytes) + " bytes)";
}

// An imported stadium through the binary form, as a JSON map comes: the
// match then plays exactly the map its replay and the wire carry (a -0.0
// where the schema's default is 0 would otherwise come back +0.0, and the
// state hashes of the two would differ).
Result<game::Map> through_binary(stadium::Imported imported, std::vector<std::string>* notes) {
    if (notes != nullptr) *notes = std::move(imported.notes);
    return protocol::map_from_binary(protocol::map_to_binary(imported.map));
}

}  // namespace

Result<game::Map> parse_map_json(const std::string& json, const std::string& where) {
    if (json.size() > kMaxMapFileBytes) return fail(too_large(where, json.size()));
    flatbuffers::Parser parser;
    if (!parser.Parse(schema::kMapSchemaText))
        return fail(where + ": built-in map schema does not parse: " + parser.error_);
    // parser.error_ carries the line, column and field of the problem.
    if (!parser.ParseJson(json.c_str())) return fail(where + ": " + parser.error_);
    const std::span<const std::uint8_t> bytes{parser.builder_.GetBufferPointer(),
                                              parser.builder_.GetSize()};
    auto map = protocol::map_from_binary(bytes);
    if (!map) return map.error_in(where);
    return map;
}

Result<game::Map> parse_map_hbs(std::string_view text, const std::string& where,
                                std::vector<std::string>* notes) {
    auto imported = stadium::import_stadium(text, where);
    if (!imported) return fail(imported.error().message);
    return through_binary(std::move(*imported), notes);
}

Result<game::Map> load_map_file(const std::filesystem::path& path,
                                std::vector<std::string>* notes) {
    if (path.extension() == ".hbs") {
        auto imported = stadium::load_stadium_file(path);
        if (!imported) return fail(imported.error().message);
        return through_binary(std::move(*imported), notes);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(path.string() + ": cannot open the map file");
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (!error && size > kMaxMapFileBytes) return fail(too_large(path.string(), size));
    // At most one byte past the limit, so a pipe or a growing file is bounded too.
    std::string text(kMaxMapFileBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) return fail(path.string() + ": read error");
    text.resize(static_cast<std::size_t>(in.gcount()));
    return parse_map_json(text, path.string());
}

Result<std::string> map_to_json(const game::Map& map) {
    flatbuffers::Parser parser;
    parser.opts.indent_step = 2;
    parser.opts.strict_json = true;
    if (!parser.Parse(schema::kMapSchemaText))
        return fail("built-in map schema does not parse: " + parser.error_);
    const std::vector<std::uint8_t> bytes = protocol::map_to_binary(map);
    std::string text;
    if (!flatbuffers::GenerateText(parser, bytes.data(), &text))
        return fail("the map cannot be written as JSON");
    return text;
}

}  // namespace carom::maps
