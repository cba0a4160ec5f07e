#include "common/schema/schema.h"

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "google/protobuf/util/json_util.h"

namespace vertex::schema {
namespace {

// ---- Built-in type regexes (RE2 syntax; leftmost-first partial match). ----
//
// Each is searched for inside a node's text, so each bounds its value with
// \b (or an explicit delimiter outside its one capturing group) to avoid
// picking a value out of the middle of a longer token.

// A currency-marked amount ("$25.99", "US$ 5", "£1,299.00", "€12,50",
// "USD 12.99", "12.99 USD", "25,99 €"), or a bare amount with two decimals
// ("12.99", "1,299.00"). Bare integers are not prices.
constexpr char kPriceRegex[] =
    R"re((?i)(?:(?:\b(?:US|CA|AU|NZ|HK|S|C|A))?\$|[\x{20AC}\x{A3}\x{A5}\x{20B9}\x{20A9}])re"
    R"re(|\b(?:USD|EUR|GBP|JPY|CAD|AUD|CHF|CNY|INR)\b)[\s\x{A0}]?\d+(?:[.,]\d{3})*(?:[.,]\d{1,2})?)re"
    R"re(|\b\d+(?:[.,]\d{3})*(?:[.,]\d{1,2})?[\s\x{A0}]?)re"
    R"re((?:[$\x{20AC}\x{A3}\x{A5}\x{20B9}\x{20A9}]|(?:USD|EUR|GBP|JPY|CAD|AUD|CHF|CNY|INR)\b))re"
    R"re(|\b\d+(?:,\d{3})*\.\d{2}\b)re";

// International ("+44 20 7946 0958", "+49 (0)30 123456", "+1 (212) 586-8655"),
// North American ("(212) 586-8655", "212-586-8655", "212.586.8655",
// "1-800-555-1234") and national trunk-prefixed ("020 7946 0958") numbers.
// Unseparated digit runs are not phones (they are ids, ISBNs, ...).
constexpr char kPhoneRegex[] =
    R"re(\+[1-9]\d{0,2}[\s.-]?(?:\(0\)[\s.-]?)?\(?\d{1,4}\)?(?:[\s.-]?\d{2,8}){1,4}\b)re"
    R"re(|(?:\b1[\s.-]?)?(?:\(\d{3}\)|\b\d{3})[\s.-]?\d{3}[\s.-]\d{4}\b)re"
    R"re(|(?:\(0\d{2,4}\)[\s-]?|\b0\d{2,4}[\s-])\d{3,4}[\s-]?\d{3,4}\b)re";

// US ZIP ("10019", "10019-1234") or UK postcode ("SW1A 1AA", "M1 1AE").
constexpr char kZipRegex[] =
    R"re(\b\d{5}(?:-\d{4})?\b|\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b)re";

// "June 12, 2010", "Jun. 12th 2010", "12 June 2010", "12-Jun-2010",
// "June 2010", "2010-06-12" (also out of "2010-06-12T10:00Z"), "12/06/2010",
// "6/12/10", "06/2010", or a bare year "1999" (the last resort: "Published
// June 2010" gives "June 2010", leftmost first).
#define VERTEX_MONTH                                                            \
  R"re((?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?)re" \
  R"re(|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?)re"          \
  R"re(|dec(?:ember)?)\b\.?)re"
#define VERTEX_DAY R"re((?:[12]\d|3[01]|0?[1-9]))re"
constexpr char kDateRegex[] =
    R"re(\b)re" VERTEX_MONTH R"re(\s)re" VERTEX_DAY
    R"re((?i:st|nd|rd|th)?,?\s\d{4}\b)re"
    R"re(|\b)re" VERTEX_DAY
    R"re((?i:st|nd|rd|th)?[\s-](?i:of\s)?)re" VERTEX_MONTH
    R"re(,?[\s-]\d{4}\b)re"
    R"re(|\b)re" VERTEX_MONTH R"re(,?\s\d{4}\b)re"
    R"re(|\b\d{4}[-/.](?:1[0-2]|0?[1-9])[-/.])re" VERTEX_DAY
    R"re(|\b)re" VERTEX_DAY R"re([-/.])re" VERTEX_DAY
    R"re([-/.](?:\d{4}|\d{2})\b)re"
    R"re(|\b(?:1[0-2]|0?[1-9])/\d{4}\b)re"
    R"re(|\b(?:1[5-9]|20)\d{2}\b)re";
#undef VERTEX_MONTH
#undef VERTEX_DAY

// ISBN-13 ("9780316125581", "978-0-316-12558-1") or ISBN-10 ("0316125581",
// "0-316-12558-X"). Hyphenated ISBN-10s need a separator before the check
// digit, so "212 586 8655" is not one.
constexpr char kIsbnRegex[] =
    R"re(\b97[89](?:[\s-]?\d){10}\b|\b\d{9}[\dXx]\b|\b\d(?:[\s-]?\d){8}[\s-][\dXx]\b)re";

// An absolute ("https://x.com/a"), "www." or root-relative ("/a/b",
// "//cdn.x.com/a") URL not glued to a preceding word; trailing punctuation is
// not part of it. Group 1 is the URL.
constexpr char kUrlRegex[] =
    R"re((?i)(?:^|[^\w/.:@-])((?:https?://|www\.|/)[^\s<>"']*[^\s<>"'.,;:!?)\]]))re";

// A URL or file name ending in an image extension, optionally followed by a
// query or fragment ("http://x.com/c/1.jpg", "/img/a.PNG?v=2", "cover.webp").
// Group 1 is the URL.
constexpr char kImageRegex[] =
    R"re((?i)(?:^|[\s("'=,:])([^\s<>"'?#()]+\.(?:jpe?g|png|gif|webp|svg))re"
    R"re((?:[?#][^\s<>"']*)?)(?:$|[\s)"',;!?]|\.(?:$|\s)))re";

// An integer or decimal, optionally signed, with thousands separators
// ("42", "-3", "4.5", "1,234", "1,234.56", "1.234,56").
constexpr char kNumberRegex[] = R"re([-+]?\b\d+(?:[.,]\d{3})*(?:[.,]\d+)?\b)re";

struct TypeEntry {
  std::string_view name;
  const char* regex;  // nullptr: free text
};

constexpr TypeEntry kTypes[] = {
    {"price", kPriceRegex}, {"phone", kPhoneRegex},   {"zip", kZipRegex},
    {"date", kDateRegex},   {"isbn", kIsbnRegex},     {"url", kUrlRegex},
    {"image", kImageRegex}, {"number", kNumberRegex}, {"text", nullptr},
};

constexpr char kKnownTypes[] =
    "price, phone, zip, date, isbn, url, image, number, text";

constexpr size_t kMaxSchemaFileBytes = size_t{1} << 20;

constexpr char kUtf8Bom[] = "\xEF\xBB\xBF";

// [a-z][a-z0-9_]*
bool IsValidName(std::string_view name) {
  if (name.empty() || name[0] < 'a' || name[0] > 'z') return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string_view TrimAsciiWhitespace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  const size_t end = s.find_last_not_of(kSpace);
  return s.substr(begin, end - begin + 1);
}

// "<source>: attribute <i> ("<name>"): "
std::string AttributeContext(std::string_view source, size_t i,
                             const v1::AttributeSchema& attr) {
  return absl::StrCat(std::string(source), ": attribute ", i, " (\"",
                      attr.name(), "\"): ");
}

// Compiles the attribute's explicit or type regex; nullptr for free text.
absl::StatusOr<std::unique_ptr<const RE2>> CompileValueRegex(
    std::string_view source, size_t i, const v1::AttributeSchema& attr) {
  if (!IsKnownType(attr.type())) {
    return absl::InvalidArgumentError(
        absl::StrCat(AttributeContext(source, i, attr), "unknown type \"",
                     attr.type(), "\"; known types: ", kKnownTypes));
  }
  const bool explicit_regex = !attr.regex().empty();
  const char* type_regex = TypeRegex(attr.type());
  if (!explicit_regex && type_regex == nullptr) return nullptr;
  const std::string pattern = explicit_regex ? attr.regex() : type_regex;
  if (pattern.size() > kMaxValueRegexBytes) {
    return absl::InvalidArgumentError(absl::StrCat(AttributeContext(source, i, attr), "regex of ", pattern.size(),
                                                   " bytes is over the regex length limit of ", kMaxValueRegexBytes,
                                                   " bytes"));
  }
  RE2::Options options;
  options.set_log_errors(false);
  // RE2 runs in time linear in the text, times the program's size: the
  // length limit and this memory budget bound both (a pattern needing more,
  // e.g. "(a{1000}){1000}", fails to compile with RE2's "pattern too large").
  options.set_max_mem(kValueRegexMaxMem);
  auto re = std::make_unique<const RE2>(pattern, options);
  const std::string field = explicit_regex ? "regex" : "type regex";
  if (!re->ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(AttributeContext(source, i, attr), "invalid ", field,
                     " \"", pattern, "\": ", re->error()));
  }
  if (re->NumberOfCapturingGroups() > kMaxValueRegexGroups) {
    return absl::InvalidArgumentError(
        absl::StrCat(AttributeContext(source, i, attr), field, " \"", pattern,
                     "\" has ", re->NumberOfCapturingGroups(), " capturing groups; at most ",
                     kMaxValueRegexGroups, " (the value is the first that takes part in a match)"));
  }
  return re;
}

}  // namespace

re2::StringPiece ValueOfMatch(const RE2& re, const re2::StringPiece* submatches) {
  const int groups = re.NumberOfCapturingGroups();
  for (int g = 1; g <= groups; ++g) {
    if (submatches[g].data() != nullptr) return submatches[g];
  }
  return groups > 0 ? re2::StringPiece() : submatches[0];
}

const char* KnownTypes() { return kKnownTypes; }

const char* TypeRegex(std::string_view type) {
  for (const TypeEntry& entry : kTypes) {
    if (entry.name == type) return entry.regex;
  }
  return nullptr;
}

bool IsKnownType(std::string_view type) {
  if (type.empty()) return true;
  for (const TypeEntry& entry : kTypes) {
    if (entry.name == type) return true;
  }
  return false;
}

struct CompiledSchema::State {
  v1::Schema proto;
  // One per attribute; nullptr for free text.
  std::vector<std::unique_ptr<const RE2>> regexes;
  // Attribute name -> index.
  std::map<std::string, int, std::less<>> index;
  int pivot = -1;
  // disjoint[i * size + j]: attributes i and j are declared disjoint.
  std::vector<bool> disjoint;
};

CompiledSchema::CompiledSchema(std::shared_ptr<const State> state)
    : state_(std::move(state)) {}

namespace {

// The vertical and attribute-list checks.
absl::Status ValidateHeader(const v1::Schema& schema, std::string_view source) {
  const std::string src(source);
  if (schema.vertical().empty()) {
    return absl::InvalidArgumentError(src + ": field \"vertical\" is empty");
  }
  if (schema.attributes().empty()) {
    return absl::InvalidArgumentError(
        src + ": field \"attributes\" is empty; a schema needs at least one");
  }
  return absl::OkStatus();
}

// Checks every attribute name and maps each to its index.
absl::StatusOr<std::map<std::string, int, std::less<>>> IndexNames(
    const v1::Schema& schema, std::string_view source) {
  std::map<std::string, int, std::less<>> index;
  for (int i = 0; i < schema.attributes_size(); ++i) {
    const v1::AttributeSchema& attr = schema.attributes(i);
    if (!IsValidName(attr.name())) {
      return absl::InvalidArgumentError(
          absl::StrCat(AttributeContext(source, i, attr),
                       "field \"name\" does not match [a-z][a-z0-9_]*"));
    }
    const auto [it, inserted] = index.emplace(attr.name(), i);
    if (!inserted) {
      return absl::InvalidArgumentError(
          absl::StrCat(AttributeContext(source, i, attr),
                       "field \"name\" repeats attribute ", it->second));
    }
  }
  return index;
}

bool IsRegularAttribute(const v1::AttributeSchema& attr) {
  return attr.has_regular() ? attr.regular() : attr.mandatory();
}

// The record-level fields of each attribute (pivot, gazetteer); returns the
// pivot's index, -1 for a schema that is not record-level.
absl::StatusOr<int> ValidateRecordLevel(const v1::Schema& schema,
                                        std::string_view source) {
  int pivot = -1;
  for (int i = 0; i < schema.attributes_size(); ++i) {
    const v1::AttributeSchema& attr = schema.attributes(i);
    if (!attr.gazetteer().empty() && !IsValidName(attr.gazetteer())) {
      return absl::InvalidArgumentError(absl::StrCat(
          AttributeContext(source, i, attr), "field \"gazetteer\" (\"",
          attr.gazetteer(), "\") does not match [a-z][a-z0-9_]*"));
    }
    if (!attr.pivot()) continue;
    if (!schema.record_level()) {
      return absl::InvalidArgumentError(absl::StrCat(
          AttributeContext(source, i, attr),
          "field \"pivot\" is set but the schema is not record_level"));
    }
    if (pivot >= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          AttributeContext(source, i, attr),
          "field \"pivot\" is set on a second attribute (attribute ", pivot,
          " is the pivot); a record-level schema has exactly one"));
    }
    if (!IsRegularAttribute(attr)) {
      return absl::InvalidArgumentError(
          absl::StrCat(AttributeContext(source, i, attr),
                       "the pivot must be regular (field \"regular\" or, "
                       "when unset, \"mandatory\")"));
    }
    pivot = i;
  }
  if (schema.record_level() && pivot < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source),
                     ": field \"record_level\" is set but no attribute is "
                     "the pivot; a record-level schema has exactly one"));
  }
  return pivot;
}

// The disjoint pairs as a size x size matrix.
absl::StatusOr<std::vector<bool>> IndexDisjoint(
    const v1::Schema& schema, std::string_view source,
    const std::map<std::string, int, std::less<>>& index) {
  const size_t n = static_cast<size_t>(schema.attributes_size());
  std::vector<bool> disjoint(n * n, false);
  for (int k = 0; k < schema.disjoint_size(); ++k) {
    const v1::DisjointAttributes& pair = schema.disjoint(k);
    const std::string context = absl::StrCat(
        std::string(source), ": disjoint ", k, " (\"", pair.first(), "\", \"",
        pair.second(), "\"): ");
    const auto first = index.find(pair.first());
    const auto second = index.find(pair.second());
    if (first == index.end() || second == index.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          context, "field \"", first == index.end() ? "first" : "second",
          "\" names no attribute of the schema"));
    }
    if (first->second == second->second) {
      return absl::InvalidArgumentError(
          absl::StrCat(context, "names the same attribute twice"));
    }
    const size_t i = static_cast<size_t>(first->second);
    const size_t j = static_cast<size_t>(second->second);
    disjoint[i * n + j] = true;
    disjoint[j * n + i] = true;
  }
  return disjoint;
}

}  // namespace

absl::StatusOr<CompiledSchema> CompiledSchema::Compile(
    const v1::Schema& schema, std::string_view source) {
  VERTEX_RETURN_IF_ERROR(ValidateHeader(schema, source));
  auto state = std::make_shared<State>();
  VERTEX_ASSIGN_OR_RETURN(state->index, IndexNames(schema, source));
  for (int i = 0; i < schema.attributes_size(); ++i) {
    VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<const RE2> re,
                            CompileValueRegex(source, i, schema.attributes(i)));
    state->regexes.push_back(std::move(re));
  }
  VERTEX_ASSIGN_OR_RETURN(state->pivot, ValidateRecordLevel(schema, source));
  VERTEX_ASSIGN_OR_RETURN(state->disjoint,
                          IndexDisjoint(schema, source, state->index));
  state->proto = schema;
  return CompiledSchema(std::move(state));
}

absl::StatusOr<CompiledSchema> CompiledSchema::FromProto(
    const v1::Schema& schema) {
  const std::string source = schema.vertical().empty()
                                 ? std::string("schema")
                                 : "schema \"" + schema.vertical() + "\"";
  return Compile(schema, source);
}

absl::StatusOr<CompiledSchema> CompiledSchema::FromJson(
    std::string_view json, std::string_view source) {
  if (json.substr(0, 3) == kUtf8Bom) json.remove_prefix(3);
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  v1::Schema schema;
  const auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), &schema,
      options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source),
                     ": invalid schema JSON: ", status.message().ToString()));
  }
  return Compile(schema, source);
}

absl::StatusOr<CompiledSchema> CompiledSchema::FromFile(
    const std::string& path) {
  VERTEX_ASSIGN_OR_RETURN(std::string json,
                          util::ReadFile(path, kMaxSchemaFileBytes));
  return FromJson(json, path);
}

const v1::Schema& CompiledSchema::proto() const { return state_->proto; }

const std::string& CompiledSchema::vertical() const {
  return state_->proto.vertical();
}

size_t CompiledSchema::size() const {
  return static_cast<size_t>(state_->proto.attributes_size());
}

const v1::AttributeSchema& CompiledSchema::attribute(size_t i) const {
  return state_->proto.attributes(static_cast<int>(i));
}

int CompiledSchema::Find(std::string_view name) const {
  const auto it = state_->index.find(name);
  return it == state_->index.end() ? -1 : it->second;
}

const RE2* CompiledSchema::ValueRegex(size_t i) const {
  return state_->regexes[i].get();
}

bool CompiledSchema::record_level() const {
  return state_->proto.record_level();
}

int CompiledSchema::pivot() const { return state_->pivot; }

bool CompiledSchema::IsRegular(size_t i) const {
  return IsRegularAttribute(attribute(i));
}

bool CompiledSchema::Disjoint(size_t i, size_t j) const {
  return state_->disjoint[i * size() + j];
}

std::optional<std::string> CompiledSchema::SelectValue(
    size_t i, std::string_view text) const {
  const RE2* re = ValueRegex(i);
  if (re == nullptr) return std::string(text);
  re2::StringPiece matches[kMaxValueRegexGroups + 1];
  const re2::StringPiece input(text.data(), text.size());
  if (!re->Match(input, 0, input.size(), RE2::UNANCHORED, matches, re->NumberOfCapturingGroups() + 1)) {
    return std::nullopt;
  }
  const re2::StringPiece m = ValueOfMatch(*re, matches);
  const std::string_view value = TrimAsciiWhitespace(std::string_view(m.data(), m.size()));
  if (value.empty()) return std::nullopt;
  return std::string(value);
}

}  // namespace vertex::schema
