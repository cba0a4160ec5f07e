#include "services/common/flags.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace vertex::cli {
namespace {

const FlagSpec* FindSpec(const std::vector<FlagSpec>& specs, const std::string& name) {
  for (const FlagSpec& s : specs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::optional<std::string> GetEnv(const std::string& variable) {
  const char* value = std::getenv(variable.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// The flag value an environment variable gives `spec`: "true" or nullopt
// (off) for a boolean flag, else the value itself.
absl::StatusOr<std::optional<std::string>> EnvFlagValue(const FlagSpec& spec, const std::string& variable,
                                                        const std::string& value) {
  if (!spec.value_name.empty()) return std::optional<std::string>(value);
  const std::string lower = absl::AsciiStrToLower(value);
  if (lower == "1" || lower == "true") return std::optional<std::string>("true");
  if (lower == "0" || lower == "false") return std::optional<std::string>();
  return absl::InvalidArgumentError("environment variable " + variable + " (flag --" + spec.name +
                                    ") must be 1, 0, true or false, not '" + value + "'");
}

}  // namespace

absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs) {
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
    parsed.values[name].push_back(parsed.flags[name]);
  }
  return parsed;
}

absl::StatusOr<int64_t> ParsedArgs::Int(const std::string& name, int64_t default_value, int64_t min,
                                        int64_t max) const {
  auto it = flags.find(name);
  if (it == flags.end()) return default_value;
  int64_t v;
  if (!absl::SimpleAtoi(it->second, &v) || v < min || v > max) {
    return absl::InvalidArgumentError(Label(name) + " must be an integer from " + std::to_string(min) + " to " +
                                      std::to_string(max) + ", not '" + it->second + "'");
  }
  return v;
}

absl::StatusOr<double> ParsedArgs::Double(const std::string& name, double default_value, double min, double max) const {
  auto it = flags.find(name);
  if (it == flags.end()) return default_value;
  double v;
  if (!absl::SimpleAtod(it->second, &v) || !(v >= min && v <= max)) {
    return absl::InvalidArgumentError(Label(name) + " must be a number from " + std::to_string(min) + " to " +
                                      std::to_string(max) + ", not '" + it->second + "'");
  }
  return v;
}

std::string ParsedArgs::String(const std::string& name, const std::string& default_value) const {
  auto it = flags.find(name);
  return it == flags.end() ? default_value : it->second;
}

std::vector<std::string> ParsedArgs::List(const std::string& name) const {
  std::vector<std::string> given;
  if (auto it = values.find(name); it != values.end()) {
    given = it->second;
  } else if (auto f = flags.find(name); f != flags.end()) {
    given.push_back(f->second);
  }
  std::vector<std::string> out;
  for (const std::string& value : given) {
    for (absl::string_view item : absl::StrSplit(value, ',', absl::SkipEmpty())) out.emplace_back(item);
  }
  return out;
}

std::string ParsedArgs::Label(const std::string& name) const {
  auto it = from_env.find(name);
  return it == from_env.end() ? "--" + name : "--" + name + " (from $" + it->second + ")";
}

std::string EnvVarName(const std::string& prefix, const std::string& flag_name) {
  std::string name = prefix;
  for (char c : flag_name) name.push_back(c == '-' ? '_' : absl::ascii_toupper(static_cast<unsigned char>(c)));
  return name;
}

absl::Status ApplyEnvironment(const std::vector<FlagSpec>& specs, const std::string& prefix, ParsedArgs* args,
                              const EnvLookup& lookup) {
  for (const FlagSpec& spec : specs) {
    if (args->Has(spec.name)) continue;
    const std::string variable = EnvVarName(prefix, spec.name);
    const std::optional<std::string> value = lookup ? lookup(variable) : GetEnv(variable);
    if (!value.has_value() || value->empty()) continue;
    absl::StatusOr<std::optional<std::string>> flag_value = EnvFlagValue(spec, variable, *value);
    if (!flag_value.ok()) return flag_value.status();
    if (!flag_value->has_value()) continue;
    args->flags[spec.name] = **flag_value;
    args->from_env[spec.name] = variable;
  }
  return absl::OkStatus();
}

std::string FlagHelp(const std::vector<FlagSpec>& specs) { return FlagHelp(specs, ""); }

std::string FlagHelp(const std::vector<FlagSpec>& specs, const std::string& env_prefix) {
  size_t width = 0;
  std::vector<std::string> heads;
  for (const FlagSpec& s : specs) {
    heads.push_back("--" + s.name + (s.value_name.empty() ? "" : " " + s.value_name));
    width = std::max(width, heads.back().size());
  }
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i) {
    out += "  " + heads[i] + std::string(width - heads[i].size() + 3, ' ') + specs[i].help;
    if (!env_prefix.empty()) out += " [env " + EnvVarName(env_prefix, specs[i].name) + "]";
    out += "\n";
  }
  return out;
}

}  // namespace vertex::cli
