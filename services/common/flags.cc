#include "services/common/flags.h"

#include <algorithm>

#include "absl/strings/numbers.h"

namespace vertex::cli {
namespace {

const FlagSpec* FindSpec(const std::vector<FlagSpec>& specs, const std::string& name) {
  for (const FlagSpec& s : specs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                     const std::vector<FlagSpec>& specs) {
  ParsedArgs parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      parsed.positional.insert(parsed.positional.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      parsed.positional.push_back(arg);
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const FlagSpec* spec = FindSpec(specs, name);
    if (spec == nullptr) return absl::InvalidArgumentError("unknown flag --" + name);
    if (spec->value_name.empty()) {
      if (eq != std::string::npos) return absl::InvalidArgumentError("flag --" + name + " takes no value");
      parsed.flags[name] = "true";
    } else if (eq != std::string::npos) {
      parsed.flags[name] = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      parsed.flags[name] = args[++i];
    } else {
      return absl::InvalidArgumentError("flag --" + name + " needs a value (" + spec->value_name + ")");
    }
  }
  return parsed;
}

absl::StatusOr<int64_t> ParsedArgs::Int(const std::string& name, int64_t default_value, int64_t min,
                                        int64_t max) const {
  auto it = flags.find(name);
  if (it == flags.end()) return default_value;
  int64_t v;
  if (!absl::SimpleAtoi(it->second, &v) || v < min || v > max) {
    return absl::InvalidArgumentError("--" + name + " must be an integer from " + std::to_string(min) +
                                      " to " + std::to_string(max) + ", not '" + it->second + "'");
  }
  return v;
}

absl::StatusOr<double> ParsedArgs::Double(const std::string& name, double default_value, double min,
                                          double max) const {
  auto it = flags.find(name);
  if (it == flags.end()) return default_value;
  double v;
  if (!absl::SimpleAtod(it->second, &v) || !(v >= min && v <= max)) {
    return absl::InvalidArgumentError("--" + name + " must be a number from " + std::to_string(min) +
                                      " to " + std::to_string(max) + ", not '" + it->second + "'");
  }
  return v;
}

std::string ParsedArgs::String(const std::string& name, const std::string& default_value) const {
  auto it = flags.find(name);
  return it == flags.end() ? default_value : it->second;
}

std::string FlagHelp(const std::vector<FlagSpec>& specs) {
  size_t width = 0;
  std::vector<std::string> heads;
  for (const FlagSpec& s : specs) {
    heads.push_back("--" + s.name + (s.value_name.empty() ? "" : " " + s.value_name));
    width = std::max(width, heads.back().size());
  }
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i) {
    out += "  " + heads[i] + std::string(width - heads[i].size() + 3, ' ') + specs[i].help + "\n";
  }
  return out;
}

}  // namespace vertex::cli
