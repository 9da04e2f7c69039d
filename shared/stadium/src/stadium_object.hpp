#pragma once
// An object of the stadium (a vertex, a segment, a disc...) with its trait
// applied, and the names the importer gives its fields in a refusal:
// "segments[3].curve", "vertexes[9].cMask (from its trait)".
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "carom/result.hpp"
#include "import_notes.hpp"

namespace carom::stadium::detail {

// "segments[3]"
inline std::string index_path(const std::string& list, std::size_t i) {
    return list + "[" + std::to_string(i) + "]";
}

// The importer's refusal: the field's path, then the reason.
inline Error refuse(const std::string& field, const std::string& reason) {
    return fail(field + ": " + reason);
}

// Each field from the object, else from its trait, else absent.
class StadiumObject {
  public:
    StadiumObject(const nlohmann::json& own, const nlohmann::json* trait, std::string path)
        : own_(&own), trait_(trait), path_(std::move(path)) {}

    // nullptr when neither the object nor its trait has the key.
    const nlohmann::json* get(const std::string& key) const;
    // "vertexes[9].cMask", or "vertexes[9].cMask (from its trait)" when the
    // value is the trait's.
    std::string field(const std::string& key) const;
    const std::string& path() const { return path_; }

  private:
    const nlohmann::json* own_;
    const nlohmann::json* trait_;
    std::string path_;
};

// The stadium's named traits, and the objects that take one.
class Traits {
  public:
    // "traits": an object of named objects, none of which has a trait itself.
    // The traits stay in `root`, which must outlive this.
    Status read(const nlohmann::json& root);

    // `value` as the object at `path` with its trait. Keys outside `known`
    // are passed over with a note, as HaxBall passes over them.
    Result<StadiumObject> object(const nlohmann::json& value, const std::string& path,
                                 const std::set<std::string>& known, ImportNotes& notes) const;

  private:
    std::map<std::string, const nlohmann::json*> named_;
};

}  // namespace carom::stadium::detail
