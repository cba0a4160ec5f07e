#include "common/extract/json_export.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/extract/compiled_rule.h"
#include "common/extract/xslt_export.h"
#include "common/rule/feature_selector.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"
#include "re2/re2.h"

namespace vertex::extract {
namespace {

// ---- CSS ----

bool IsCssIdent(const std::string& s) {
  if (s.empty() || absl::ascii_isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-') return false;
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

// A CSS string literal: '"', '\' and control characters escaped.
std::string CssString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "\\%x ", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The compound selector of one element step (tag, id, class features of
// one value or presence); nullopt when CSS cannot say it exactly (sibling
// features: CSS selectors level 3 has no following-sibling test, and a
// preceding one would need :is()).
std::optional<std::string> CssCompound(const std::vector<rule::Feature>& features, int level) {
  std::string tag = "*", attrs;
  for (const rule::Feature& f : features) {
    if (f.level != level) continue;
    const bool id = f.kind == rule::Kind::kId;
    if (f.kind == rule::Kind::kTag) {
      if (f.values.size() != 1 || !IsCssIdent(f.values[0])) return std::nullopt;
      tag = f.values[0];
    } else if (id || f.kind == rule::Kind::kClass) {
      if (f.values.size() > 1) return std::nullopt;
      // [class="a b"] compares the whole value, as @class='a b' does.
      attrs += f.values.empty() ? absl::StrCat("[", id ? "id" : "class", "]")
                                : absl::StrCat("[", id ? "id" : "class", "=", CssString(f.values[0]), "]");
    } else {
      return std::nullopt;
    }
  }
  return tag + attrs;
}

// The CSS selector equivalent to an element rule's features; "" when none
// is exact (text nodes, anchors, sibling tests, disjunctions, positions).
std::string CssSelector(const v1::AttributeRule& a) {
  if (a.text_nodes() || a.features_size() == 0 || a.position().kind() != v1::Position::NONE) return "";
  std::vector<rule::Feature> features;
  int top = 0;
  for (const v1::XPathFeature& p : a.features()) {
    absl::StatusOr<rule::Feature> f = rule::FeatureFromProto(p);
    if (!f.ok()) return "";
    top = std::max(top, f->level);
    features.push_back(*std::move(f));
  }
  std::string out;
  for (int level = top; level >= 0; --level) {
    std::optional<std::string> step = CssCompound(features, level);
    if (!step) return "";
    out += (level == top ? "" : " > ") + *step;
  }
  return out;
}

// ---- JSON ----

void AppendJsonString(const std::string& s, std::string* out) {
  *out += '"';
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += c;
    } else if (c == '\n') {
      *out += "\\n";
    } else if (u < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "\\u%04x", u);
      *out += hex;
    } else {
      *out += c;
    }
  }
  *out += '"';
}

std::string JsonString(const std::string& s) {
  std::string out;
  AppendJsonString(s, &out);
  return out;
}

std::string JsonStringOrNull(const std::string& s) { return s.empty() ? "null" : JsonString(s); }

std::string FieldJson(const ExportedField& f) {
  std::string out = "{\"name\":" + JsonString(f.name);
  if (!f.unexported.empty()) return out + ",\"unexported\":" + JsonString(f.unexported) + "}";
  absl::StrAppend(&out, ",\"xpath\":", JsonString(f.xpath), ",\"attribute\":", JsonStringOrNull(f.attribute),
                  ",\"range\":", JsonStringOrNull(f.range), ",\"regex\":", JsonStringOrNull(f.regex),
                  ",\"multiple\":", f.multiple ? "true" : "false", ",\"split\":");
  if (f.split.empty()) {
    out += "null";
  } else {
    out += "[";
    for (size_t i = 0; i < f.split.size(); ++i) out += (i ? "," : "") + JsonString(f.split[i]);
    out += "]";
  }
  if (!f.resolve.empty()) out += ",\"resolve\":" + JsonString(f.resolve);
  if (!f.css.empty()) out += ",\"css\":" + JsonString(f.css);
  return out + "}";
}

// ---- fields ----


absl::StatusOr<ExportedField> ExportedRule(const v1::AttributeRule& a, const schema::CompiledSchema& schema,
                                           size_t index) {
  ExportedField f;
  f.name = a.attribute();
  f.unexported = FieldUnexportedReason(a);
  if (!f.unexported.empty()) return f;
  if (a.has_range()) {
    VERTEX_ASSIGN_OR_RETURN(f.range, RangeRegex(a.range()));
  }
  VERTEX_ASSIGN_OR_RETURN(f.xpath, ExportXPath(a));
  f.attribute = a.value_attribute();
  f.resolve = UrlResolution(f.attribute);
  if (const RE2* regex = schema.ValueRegex(index)) f.regex = regex->pattern();
  f.multiple = a.multi_valued();
  f.split.assign(a.split().separators().begin(), a.split().separators().end());
  f.css = CssSelector(a);
  return f;
}

}  // namespace

std::string UrlResolution(const std::string& attribute) {
  // As rule/url.h IsUrlAttribute (srcset is not exported).
  for (const char* name : {"href", "src", "action", "poster", "cite"}) {
    if (attribute == name) return "url";
  }
  return attribute == "content" ? "meta-url" : "";
}

std::string FieldUnexportedReason(const v1::AttributeRule& a) {
  if (a.method() == v1::AttributeRule::CLASSIFIER) return "picked by a classifier, which an XPath cannot express";
  if (!a.json_path().empty()) return "the value is read from JSON-LD by a JSON path, which an XPath cannot express";
  if (a.has_range() && a.range().nearest_match()) {
    return "the value is the typed match nearest a learnt offset, which a regex cannot express";
  }
  if (a.value_attribute() == "srcset") {
    return "the value is the first URL of a srcset, which an XPath and a regex cannot pick exactly";
  }
  if (!a.text_nodes() && a.value_attribute().empty() && a.features_size() > 0) {
    // The value model reads an element's rendered lines (<br> and block
    // boundaries break lines, cells spaced), not its string-value.
    return "the value is the element's rendered text, which XPath's string() does not give";
  }
  if (a.has_range()) {
    if (absl::StatusOr<std::string> r = RangeRegex(a.range()); !r.ok()) return std::string(r.status().message());
  }
  return "";
}

absl::StatusOr<std::string> ExportXPath(const v1::AttributeRule& a) {
  const std::string where = absl::StrCat("rule attribute \"", a.attribute(), "\": ");
  std::string xpath = a.xpath();
  if (a.features_size() > 0) {
    std::vector<rule::Feature> features;
    for (const v1::XPathFeature& p : a.features()) {
      absl::StatusOr<rule::Feature> f = rule::FeatureFromProto(p);
      if (!f.ok()) return absl::InvalidArgumentError(where + std::string(f.status().message()));
      features.push_back(*std::move(f));
    }
    xpath = rule::RenderPositionalXPath(features, a.text_nodes(), a.position());
  }
  absl::StatusOr<std::string> rewritten = RewriteEndsWith(xpath);
  if (!rewritten.ok()) return absl::InvalidArgumentError(where + std::string(rewritten.status().message()));
  return rewritten;
}

absl::StatusOr<std::vector<ExportedField>> ExportFields(const v1::Rule& given, const schema::CompiledSchema& schema) {
  absl::StatusOr<CompiledRule> compiled = CompiledRule::Create(given, schema);
  if (!compiled.ok()) return compiled.status();
  // As the engine runs it (record attributes without features).
  const v1::Rule& rule = compiled->proto();
  std::vector<const v1::AttributeRule*> parts(schema.size(), nullptr);
  for (const v1::AttributeRule& a : rule.has_record() ? rule.record().attributes() : rule.attributes()) {
    parts[schema.Find(a.attribute())] = &a;
  }
  std::vector<ExportedField> out;
  for (size_t i = 0; i < parts.size(); ++i) {
    ExportedField f;
    f.name = schema.attribute(i).name();
    if (parts[i] == nullptr) {
      f.unexported = "the rule has no part for the attribute";
    } else {
      VERTEX_ASSIGN_OR_RETURN(f, ExportedRule(*parts[i], schema, i));
    }
    out.push_back(std::move(f));
  }
  return out;
}

absl::StatusOr<std::string> FieldsJson(const std::vector<ExportedField>& fields) {
  std::string out = "{\"fields\":[";
  for (size_t i = 0; i < fields.size(); ++i) {
    const ExportedField& f = fields[i];
    for (const std::string* s : {&f.name, &f.unexported, &f.xpath, &f.attribute, &f.range, &f.regex, &f.css}) {
      if (!util::IsValidUtf8(*s)) {
        return absl::InvalidArgumentError("field \"" + f.name + "\" holds a string that is not valid UTF-8");
      }
    }
    out += (i ? ",\n  " : "\n  ") + FieldJson(f);
  }
  return out + "\n]}\n";
}

absl::StatusOr<std::string> RuleFieldsJson(const v1::Rule& rule, const schema::CompiledSchema& schema) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<ExportedField> fields, ExportFields(rule, schema));
  VERTEX_ASSIGN_OR_RETURN(std::string json, FieldsJson(fields));
  if (!rule.has_record()) return json;
  absl::StatusOr<std::string> xpath = RewriteEndsWith(rule.record().record_xpath());
  if (!xpath.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("record rule of cluster ", rule.cluster_id(), ": ",
                                                   xpath.status().message()));
  }
  if (!util::IsValidUtf8(*xpath)) {
    return absl::InvalidArgumentError("the record XPath holds a string that is not valid UTF-8");
  }
  // FieldsJson's {"fields":[...]}\n, wrapped.
  json.pop_back();
  return absl::StrCat("{\"record\":{\"xpath\":", JsonString(*xpath), ",\"length\":", rule.record().record_length(),
                      ",", json.substr(1), "}\n");
}

absl::StatusOr<std::string> RangeRegex(const v1::TextRange& r) {
  if (r.skip_start() < 0 || r.skip_end() < 0) {
    return absl::InvalidArgumentError(absl::StrCat("the text range skips ", r.skip_start(), " and ", r.skip_end(),
                                                   " units: it never selects anything"));
  }
  // A unit, a unit followed by its separator, and a separator then a unit.
  std::string unit, unit_sep, sep_unit;
  if (r.unit() == v1::TextRange::WORDS) {
    unit = "[^ ]+", unit_sep = "[^ ]+ ", sep_unit = " [^ ]+";
  } else if (r.unit() == v1::TextRange::CHARACTERS) {
    unit = ".", unit_sep = ".", sep_unit = ".";
  } else {
    return absl::InvalidArgumentError(absl::StrCat("the text range's unit ", r.unit(), " is unknown"));
  }
  const std::string skip = absl::StrCat("(?:", unit_sep, "){", r.skip_start(), "}");
  if (r.length() <= 0) {  // a negative length is no length, as for ApplyTextRange
    return absl::StrCat("(?s)^", skip, "(", unit, "(?:", sep_unit, ")*?)(?:", sep_unit, "){", r.skip_end(), "}$");
  }
  const std::string value = absl::StrCat("(", unit, "(?:", sep_unit, "){", r.length() - 1, "})");
  if (!r.anchor_end()) return absl::StrCat("(?s)^", skip, value, "(?:", sep_unit, "){", r.skip_end(), ",}$");
  return absl::StrCat("(?s)^", skip, "(?:", unit_sep, ")*", value, "(?:", sep_unit, "){", r.skip_end(), "}$");
}

}  // namespace vertex::extract
