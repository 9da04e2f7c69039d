#include "stadium_object.hpp"

namespace carom::stadium::detail {

using nlohmann::json;

const json* StadiumObject::get(const std::string& key) const {
    if (const auto it = own_->find(key); it != own_->end()) return &*it;
    if (trait_ != nullptr) {
        if (const auto it = trait_->find(key); it != trait_->end()) return &*it;
    }
    return nullptr;
}

std::string StadiumObject::field(const std::string& key) const {
    const bool from_trait = !own_->contains(key) && trait_ != nullptr && trait_->contains(key);
    return path_ + "." + key + (from_trait ? " (from its trait)" : "");
}

Status Traits::read(const json& root) {
    const auto it = root.find("traits");
    if (it == root.end()) return {};
    if (!it->is_object()) return refuse("traits", "must be an object of named traits");
    for (const auto& [name, value] : it->items()) {
        if (!value.is_object()) return refuse("traits." + name, "must be an object");
        if (value.contains("trait"))
            return refuse("traits." + name + ".trait", "traits do not nest");
        named_[name] = &value;
    }
    return {};
}

Result<StadiumObject> Traits::object(const json& value, const std::string& path,
                                     const std::set<std::string>& known, ImportNotes& notes) const {
    if (!value.is_object()) return refuse(path, "must be an object");
    for (const auto& [key, v] : value.items()) {
        if (!known.contains(key))
            notes.ignore(path + "." + key,
                         "not a field of the format; ignored, as HaxBall ignores it");
    }
    const json* trait = nullptr;
    if (const auto it = value.find("trait"); it != value.end()) {
        if (!it->is_string()) return refuse(path + ".trait", "must be a trait's name");
        const auto found = named_.find(it->get<std::string>());
        if (found == named_.end())
            return refuse(path + ".trait", "no trait named \"" + it->get<std::string>() + "\"");
        trait = found->second;
    }
    return StadiumObject(value, trait, path);
}

}  // namespace carom::stadium::detail
