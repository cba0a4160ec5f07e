#include "common/schema/schema.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/util/file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::schema {
namespace {

using ::testing::HasSubstr;

std::string SourcePath(const std::string& relative) {
  return std::string(VERTEX_SOURCE_DIR) + "/" + relative;
}

// A one-attribute schema JSON with the attribute's body `attr`.
std::string OneAttribute(const std::string& attr) {
  return R"js({"vertical":"test","attributes":[)js" + attr + "]}";
}

// ---- Shipped schemas -------------------------------------------------------

struct ShippedCase {
  std::string file;
  std::string vertical;
  // name:flags, flags from m (mandatory), c (constant), v (multi-valued),
  // then :type.
  std::vector<std::string> attributes;
};

std::string Describe(const v1::AttributeSchema& a) {
  std::string flags;
  if (a.mandatory()) flags += "m";
  if (a.constant()) flags += "c";
  if (a.multi_valued()) flags += "v";
  return absl::StrCat(a.name(), ":", flags, ":", a.type());
}

TEST(ShippedSchemas, LoadWithTheDocumentedAttributes) {
  const std::vector<ShippedCase> cases = {
      {"deploy/schemas/book.json",
       "book",
       {"title:mc:", "author:cv:", "isbn_13:mc:isbn",
        "publisher:c:", "publication_date:c:date"}},
      {"deploy/schemas/product.json",
       "product",
       {"title:mc:", "brand:c:", "price:m:price",
        "sku:c:", "availability::", "rating::number", "category:v:",
        "link:c:url", "image:c:image", "og_title:c:", "published:c:date",
        "unit_price::price", "tagline:c:", "weight:c:", "designers:cv:",
        "collection::", "features:v:"}},
      {"deploy/schemas/business.json",
       "business",
       {"name:mc:", "phone:c:phone", "street:c:", "city:c:", "zip:c:zip",
        "hours:v:", "address:c:"}},
  };
  for (const ShippedCase& c : cases) {
    SCOPED_TRACE(c.file);
    absl::StatusOr<CompiledSchema> schema =
        CompiledSchema::FromFile(SourcePath(c.file));
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    EXPECT_EQ(schema->vertical(), c.vertical);
    std::vector<std::string> got;
    for (size_t i = 0; i < schema->size(); ++i) {
      got.push_back(Describe(schema->attribute(i)));
      EXPECT_EQ(schema->ValueRegex(i) != nullptr,
                !schema->attribute(i).type().empty())
          << got.back();
    }
    EXPECT_EQ(got, c.attributes);
  }
}

// The record-level schemas (AMBER's two evaluation verticals): flags, pivot,
// gazetteers, disjoint pairs, and what their regexes pick from listing text.
struct RecordLevelCase {
  std::string file;
  std::string pivot;
  std::vector<std::string> regular;
  // attribute:gazetteer
  std::vector<std::string> gazetteers;
  std::vector<std::pair<std::string, std::string>> disjoint;
  // attribute, text, selected value (nullopt: none)
  std::vector<std::tuple<std::string, std::string, std::optional<std::string>>> values;
};

TEST(ShippedSchemas, RecordLevelSchemasLoad) {
  const std::vector<RecordLevelCase> cases = {
      {"deploy/schemas/real_estate.json",
       "price",
       {"price", "location"},
       {"location:uk_places"},
       {},
       {{"price", "Guide price \xC2\xA3" "250,000", "\xC2\xA3" "250,000"},
        {"postcode", "Walton Street, Oxford OX2 6AE", "OX2 6AE"},
        {"postcode", "Flat in SW1A1AA", "SW1A1AA"},
        {"postcode", "oxford ox2 6ae", std::nullopt},
        {"bedrooms", "3 bedroom semi-detached house", "3"},
        {"bedrooms", "2 Beds", "2"},
        {"bedrooms", "4bed", "4"},
        {"bedrooms", "bedsit", std::nullopt},
        {"bedrooms", "Bedrooms: 3", "3"},
        {"bathrooms", "Bathrooms: 2", "2"},
        {"receptions", "Receptions: 1", "1"},
        {"bathrooms", "2 bathrooms", "2"},
        {"receptions", "1 reception room", "1"},
        {"receptions", "2 receptions", "2"},
        {"property_type", "3 bedroom semi-detached house", "semi-detached"},
        {"property_type", "Studio flat", "Studio"},
        {"property_type", "housing association", std::nullopt},
        {"legal_status", "Sold STC", "Sold STC"},
        {"legal_status", "Flat to let", "to let"},
        {"legal_status", "Toilet", std::nullopt}}},
      {"deploy/schemas/used_cars.json",
       "price",
       {"make", "price"},
       {"make:car_makes", "model:car_models", "location:uk_places"},
       {{"model", "location"}},
       {{"price", "\xC2\xA3" "9,995", "\xC2\xA3" "9,995"},
        {"year", "2015 (65 reg)", "2015"},
        {"year", "12045 miles", std::nullopt},
        {"mileage", "45,000 miles", "45,000"},
        {"mileage", "12045 Miles", "12045"},
        {"fuel", "Petrol Hybrid, Automatic", "Petrol Hybrid"},
        {"fuel", "Diesel", "Diesel"},
        {"transmission", "Petrol, Manual", "Manual"},
        {"engine_size", "2.0L TDI", "2.0L"},
        {"engine_size", "1.6 litre", "1.6 litre"},
        {"dealer", "Hargreaves Motor Company, Leeds", "Hargreaves Motor Company"},
        {"dealer", "a clean car", std::nullopt},
        {"engine_size", "1.6 lbs", std::nullopt},
        {"colour", "Metallic Grey", "Grey"},
        {"body_type", "5 door Hatchback", "Hatchback"},
        {"body_type", "4 door Saloon", "Saloon"}}},
  };
  for (const RecordLevelCase& c : cases) {
    SCOPED_TRACE(c.file);
    absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromFile(SourcePath(c.file));
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    EXPECT_TRUE(schema->record_level());
    ASSERT_GE(schema->pivot(), 0);
    EXPECT_EQ(schema->attribute(schema->pivot()).name(), c.pivot);
    std::vector<std::string> regular, gazetteers;
    for (size_t i = 0; i < schema->size(); ++i) {
      if (schema->IsRegular(i)) regular.push_back(schema->attribute(i).name());
      if (!schema->attribute(i).gazetteer().empty()) {
        gazetteers.push_back(schema->attribute(i).name() + ":" + schema->attribute(i).gazetteer());
      }
    }
    EXPECT_EQ(regular, c.regular);
    EXPECT_EQ(gazetteers, c.gazetteers);
    size_t pairs = 0;
    for (size_t i = 0; i < schema->size(); ++i) {
      for (size_t j = i + 1; j < schema->size(); ++j) pairs += schema->Disjoint(i, j);
    }
    EXPECT_EQ(pairs, c.disjoint.size());
    for (const auto& [first, second] : c.disjoint) {
      EXPECT_TRUE(schema->Disjoint(schema->Find(first), schema->Find(second))) << first << "/" << second;
    }
    for (const auto& [name, text, expected] : c.values) {
      const int i = schema->Find(name);
      ASSERT_GE(i, 0) << name;
      EXPECT_EQ(schema->SelectValue(i, text), expected) << name << " on \"" << text << "\"";
    }
  }
}

// ---- Validation errors -----------------------------------------------------

struct RejectCase {
  std::string what;
  std::string json;
  std::vector<std::string> message_parts;
};

TEST(FromJson, Rejects) {
  const std::vector<RejectCase> cases = {
      {"empty input", "", {"invalid schema JSON"}},
      {"regex over the length limit",
       OneAttribute("{\"name\":\"a\",\"regex\":\"" + std::string(1025, 'x') + "\"}"),
       {"attribute 0 (\"a\")", "regex of 1025 bytes", "regex length limit of 1024 bytes"}},
      {"regex over RE2's memory budget",
       OneAttribute(R"js({"name":"a","regex":"(?:[\\p{L}\\p{N}] ?){1000}"})js"),
       {"attribute 0 (\"a\")", "invalid regex", "pattern too large"}},
      {"truncated JSON", R"js({"vertical":"book",)js", {"invalid schema JSON"}},
      {"not an object", "[1, 2]", {"invalid schema JSON"}},
      {"unknown top-level field",
       R"js({"vertical":"book","attrs":[{"name":"a"}]})js",
       {"invalid schema JSON", "attrs"}},
      {"unknown attribute field",
       OneAttribute(R"js({"name":"a","kind":"x"})js"),
       {"invalid schema JSON", "kind"}},
      {"flag of the wrong JSON type",
       OneAttribute(R"js({"name":"a","mandatory":"maybe"})js"),
       {"invalid schema JSON"}},
      {"missing vertical",
       R"js({"attributes":[{"name":"a"}]})js",
       {"\"vertical\" is empty"}},
      {"empty vertical",
       R"js({"vertical":"","attributes":[{"name":"a"}]})js",
       {"\"vertical\" is empty"}},
      {"missing attributes",
       R"js({"vertical":"book"})js",
       {"\"attributes\" is empty"}},
      {"empty attributes",
       R"js({"vertical":"book","attributes":[]})js",
       {"\"attributes\" is empty"}},
      {"empty name",
       OneAttribute(R"js({"mandatory":true})js"),
       {"attribute 0 (\"\")", "\"name\"", "[a-z][a-z0-9_]*"}},
      {"uppercase name",
       OneAttribute(R"js({"name":"Title"})js"),
       {"attribute 0 (\"Title\")", "[a-z][a-z0-9_]*"}},
      {"name starting with a digit",
       OneAttribute(R"js({"name":"1st"})js"),
       {"attribute 0 (\"1st\")", "[a-z][a-z0-9_]*"}},
      {"name with a dash",
       OneAttribute(R"js({"name":"isbn-13"})js"),
       {"attribute 0 (\"isbn-13\")", "[a-z][a-z0-9_]*"}},
      {"name with a space",
       OneAttribute(R"js({"name":"x y"})js"),
       {"attribute 0 (\"x y\")"}},
      {"duplicated name",
       R"js({"vertical":"b","attributes":[{"name":"title"},{"name":"isbn"},)js"
       R"js({"name":"title"}]})js",
       {"attribute 2 (\"title\")", "repeats attribute 0"}},
      {"unknown type",
       OneAttribute(R"js({"name":"cost","type":"currency"})js"),
       {"attribute 0 (\"cost\")", "unknown type \"currency\"",
        "price, phone, zip, date, isbn, url, image, number, text"}},
      {"type in the wrong case",
       OneAttribute(R"js({"name":"p","type":"Price"})js"),
       {"unknown type \"Price\""}},
      {"regex RE2 rejects",
       OneAttribute(R"js({"name":"x","regex":"(unclosed"})js"),
       {"attribute 0 (\"x\")", "invalid regex \"(unclosed\"", "missing )"}},
      {"backreference (not RE2)",
       OneAttribute(R"js({"name":"x","regex":"(a)\\1"})js"),
       {"invalid regex \"(a)\\1\"", "invalid escape sequence"}},
      {"regex with five groups",
       OneAttribute(R"js({"name":"x","regex":"(a)(b)(c)(d)(e)"})js"),
       {"attribute 0 (\"x\")", "\"(a)(b)(c)(d)(e)\"", "5 capturing groups; at most 4"}},
      {"regex with five named groups",
       OneAttribute(
           R"js({"name":"x","type":"price","regex":"(?P<a>x)(?P<b>y)(?P<c>y)(?P<d>y)(?P<e>y)"})js"),
       {"5 capturing groups"}},
  };
  for (const RejectCase& c : cases) {
    absl::StatusOr<CompiledSchema> schema =
        CompiledSchema::FromJson(c.json, "test.json");
    ASSERT_FALSE(schema.ok()) << c.what << ": accepted " << c.json;
    EXPECT_EQ(schema.status().code(), absl::StatusCode::kInvalidArgument)
        << c.what << ": " << schema.status().ToString();
    EXPECT_THAT(std::string(schema.status().message()), HasSubstr("test.json"))
        << c.what;
    for (const std::string& part : c.message_parts) {
      EXPECT_THAT(std::string(schema.status().message()), HasSubstr(part))
          << c.what << ": " << c.json;
    }
  }
}

// ---- Record-level schemas ---------------------------------------------------

// A record-level schema JSON with the given attribute bodies and extra
// top-level fields.
std::string RecordLevel(const std::string& attrs, const std::string& extra = "") {
  return R"js({"vertical":"t","record_level":true,"attributes":[)js" + attrs + "]" + extra + "}";
}

TEST(FromJson, RejectsBadRecordLevelFields) {
  const std::string price = R"js({"name":"price","type":"price","regular":true,"pivot":true})js";
  const std::vector<RejectCase> cases = {
      {"record-level without a pivot",
       RecordLevel(R"js({"name":"price","type":"price","regular":true})js"),
       {"\"record_level\" is set but no attribute is the pivot"}},
      {"two pivots",
       RecordLevel(price + R"js(,{"name":"make","regular":true,"pivot":true})js"),
       {"attribute 1 (\"make\")", "second attribute (attribute 0 is the pivot)"}},
      {"pivot explicitly not regular",
       RecordLevel(R"js({"name":"price","mandatory":true,"regular":false,"pivot":true})js"),
       {"attribute 0 (\"price\")", "the pivot must be regular"}},
      {"pivot neither regular nor mandatory",
       RecordLevel(R"js({"name":"price","pivot":true})js"),
       {"attribute 0 (\"price\")", "the pivot must be regular"}},
      {"pivot on a schema that is not record-level",
       OneAttribute(R"js({"name":"price","mandatory":true,"pivot":true})js"),
       {"attribute 0 (\"price\")", "\"pivot\" is set but the schema is not record_level"}},
      {"gazetteer name in upper case",
       RecordLevel(price + R"js(,{"name":"location","gazetteer":"UK_places"})js"),
       {"attribute 1 (\"location\")", "\"gazetteer\" (\"UK_places\")", "[a-z][a-z0-9_]*"}},
      {"gazetteer name with a dash",
       OneAttribute(R"js({"name":"make","gazetteer":"car-makes"})js"),
       {"attribute 0 (\"make\")", "\"gazetteer\" (\"car-makes\")"}},
      {"disjoint pair naming an unknown first attribute",
       RecordLevel(price, R"js(,"disjoint":[{"first":"model","second":"price"}])js"),
       {"disjoint 0 (\"model\", \"price\")", "field \"first\" names no attribute"}},
      {"disjoint pair naming an unknown second attribute",
       RecordLevel(price + R"js(,{"name":"model"})js",
                   R"js(,"disjoint":[{"first":"model","second":"price"},{"first":"model","second":"postcode"}])js"),
       {"disjoint 1 (\"model\", \"postcode\")", "field \"second\" names no attribute"}},
      {"disjoint pair with an empty name",
       RecordLevel(price, R"js(,"disjoint":[{"first":"price"}])js"),
       {"disjoint 0 (\"price\", \"\")", "field \"second\""}},
      {"disjoint pair naming one attribute twice",
       RecordLevel(price, R"js(,"disjoint":[{"first":"price","second":"price"}])js"),
       {"disjoint 0 (\"price\", \"price\")", "names the same attribute twice"}},
  };
  for (const RejectCase& c : cases) {
    absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromJson(c.json, "test.json");
    ASSERT_FALSE(schema.ok()) << c.what << ": accepted " << c.json;
    EXPECT_EQ(schema.status().code(), absl::StatusCode::kInvalidArgument) << c.what;
    EXPECT_THAT(std::string(schema.status().message()), HasSubstr("test.json")) << c.what;
    for (const std::string& part : c.message_parts) {
      EXPECT_THAT(std::string(schema.status().message()), HasSubstr(part))
          << c.what << ": " << schema.status().ToString();
    }
  }
}

TEST(CompiledSchema, RecordLevelAccessors) {
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromJson(
      RecordLevel(R"js({"name":"make","mandatory":true,"gazetteer":"car_makes"},)js"
                  R"js({"name":"price","type":"price","regular":true,"pivot":true},)js"
                  R"js({"name":"model","gazetteer":"car_models"},)js"
                  R"js({"name":"location","regular":true},)js"
                  R"js({"name":"dealer","mandatory":true,"regular":false})js",
                  R"js(,"disjoint":[{"first":"location","second":"model"}])js"),
      "cars.json");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_TRUE(schema->record_level());
  EXPECT_EQ(schema->pivot(), 1);
  // Explicit `regular` wins over `mandatory` both ways; unset follows it.
  const std::vector<bool> regular = {true, true, false, true, false};
  for (size_t i = 0; i < schema->size(); ++i) {
    EXPECT_EQ(schema->IsRegular(i), regular[i]) << schema->attribute(i).name();
  }
  for (size_t i = 0; i < schema->size(); ++i) {
    for (size_t j = 0; j < schema->size(); ++j) {
      const bool expected = (i == 2 && j == 3) || (i == 3 && j == 2);
      EXPECT_EQ(schema->Disjoint(i, j), expected) << i << ", " << j;
    }
  }
  EXPECT_EQ(schema->attribute(0).gazetteer(), "car_makes");
}

TEST(CompiledSchema, DetailSchemaHasNoPivot) {
  absl::StatusOr<CompiledSchema> schema =
      CompiledSchema::FromJson(OneAttribute(R"js({"name":"title","mandatory":true})js"), "t");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_FALSE(schema->record_level());
  EXPECT_EQ(schema->pivot(), -1);
  EXPECT_TRUE(schema->IsRegular(0));
  EXPECT_FALSE(schema->Disjoint(0, 0));
}

TEST(FromJson, AcceptsBomCamelCaseAndFreeTextTypes) {
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromJson(
      "\xEF\xBB\xBF"
      R"js({"vertical":"v","attributes":[{"name":"a","multiValued":true},)js"
      R"js({"name":"b","type":"text"},{"name":"c","type":""}]})js",
      "bom.json");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_TRUE(schema->attribute(0).multi_valued());
  for (size_t i = 0; i < schema->size(); ++i) {
    EXPECT_EQ(schema->ValueRegex(i), nullptr) << schema->attribute(i).name();
  }
}

TEST(FromFile, MissingFileIsNotFoundNamingThePath) {
  const std::string path = ::testing::TempDir() + "/no_such_schema.json";
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromFile(path);
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(schema.status().message()), HasSubstr(path));
}

TEST(FromFile, OversizedFileIsResourceExhausted) {
  const std::string path = ::testing::TempDir() + "/huge_schema.json";
  ASSERT_TRUE(util::WriteFile(path, std::string((1 << 20) + 1, ' ')).ok());
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromFile(path);
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(schema.status().message()), HasSubstr(path));
}

TEST(FromFile, InvalidFileNamesThePath) {
  const std::string path = ::testing::TempDir() + "/bad_schema.json";
  ASSERT_TRUE(util::WriteFile(path, OneAttribute(R"js({"name":"A"})js")).ok());
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromFile(path);
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(schema.status().message()),
              HasSubstr(path + ": attribute 0 (\"A\")"));
}

TEST(FromProto, ValidatesAndNamesTheVertical) {
  v1::Schema proto;
  proto.set_vertical("book");
  proto.add_attributes()->set_name("title");
  proto.add_attributes()->set_name("bad name");
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromProto(proto);
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(schema.status().message()),
              HasSubstr("schema \"book\": attribute 1 (\"bad name\")"));

  proto.mutable_attributes(1)->set_name("price");
  proto.mutable_attributes(1)->set_type("price");
  schema = CompiledSchema::FromProto(proto);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(schema->proto().DebugString(), proto.DebugString());
  EXPECT_EQ(schema->SelectValue(1, "Now $3.50"), "$3.50");
}

TEST(FromProto, EmptySchemaIsRejected) {
  absl::StatusOr<CompiledSchema> schema =
      CompiledSchema::FromProto(v1::Schema());
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(schema.status().message()),
              HasSubstr("\"vertical\" is empty"));
}

// ---- Lookup ----------------------------------------------------------------

TEST(CompiledSchema, Find) {
  absl::StatusOr<CompiledSchema> schema =
      CompiledSchema::FromFile(SourcePath("deploy/schemas/book.json"));
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const std::vector<std::pair<std::string, int>> cases = {
      {"title", 0},     {"author", 1},           {"isbn_13", 2},
      {"publisher", 3}, {"publication_date", 4}, {"price", -1},
      {"", -1},         {"Title", -1},           {"title ", -1},
      {"isbn", -1},
  };
  for (const auto& [name, index] : cases) {
    EXPECT_EQ(schema->Find(name), index) << "\"" << name << "\"";
  }
}

TEST(CompiledSchema, CopiesShareStateThatOutlivesTheOriginal) {
  std::optional<CompiledSchema> copy;
  const RE2* regex = nullptr;
  {
    absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromJson(
        OneAttribute(R"js({"name":"p","type":"price"})js"), "inline");
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    regex = schema->ValueRegex(0);
    copy.emplace(*schema);
  }
  EXPECT_EQ(copy->ValueRegex(0), regex);
  EXPECT_EQ(copy->SelectValue(0, "only $9.99 today"), "$9.99");
}

// ---- Type regexes ----------------------------------------------------------

TEST(TypeRegex, KnownTypesCompileWithAtMostOneGroup) {
  const std::vector<std::string> types = absl::StrSplit(KnownTypes(), ", ");
  ASSERT_EQ(types.size(), 9u);
  for (const std::string& type : types) {
    EXPECT_TRUE(IsKnownType(type)) << type;
    const char* pattern = TypeRegex(type);
    if (type == "text") {
      EXPECT_EQ(pattern, nullptr);
      continue;
    }
    ASSERT_NE(pattern, nullptr) << type;
    RE2 re(pattern, RE2::Quiet);
    EXPECT_TRUE(re.ok()) << type << ": " << re.error();
    EXPECT_LE(re.NumberOfCapturingGroups(), 1) << type;
  }
}

TEST(TypeRegex, FreeTextAndUnknownTypesHaveNone) {
  for (const char* type : {"", "text", "currency", "PRICE", "price "}) {
    EXPECT_EQ(TypeRegex(type), nullptr) << "\"" << type << "\"";
  }
  EXPECT_TRUE(IsKnownType(""));
  EXPECT_FALSE(IsKnownType("currency"));
  EXPECT_FALSE(IsKnownType("PRICE"));
}

struct SelectCase {
  std::string type;
  std::string text;
  std::optional<std::string> want;  // nullopt: not a valid value
};

// Builds a schema with one attribute per type, named after the type.
CompiledSchema AllTypesSchema() {
  v1::Schema proto;
  proto.set_vertical("all");
  const std::vector<std::string> types = absl::StrSplit(KnownTypes(), ", ");
  for (const std::string& type : types) {
    v1::AttributeSchema* attr = proto.add_attributes();
    attr->set_name(type);
    attr->set_type(type);
  }
  return CompiledSchema::FromProto(proto).value();
}

void ExpectSelections(const std::vector<SelectCase>& cases) {
  const CompiledSchema schema = AllTypesSchema();
  for (const SelectCase& c : cases) {
    const int index = schema.Find(c.type);
    ASSERT_GE(index, 0) << c.type;
    EXPECT_EQ(schema.SelectValue(index, c.text), c.want)
        << c.type << " on \"" << c.text << "\"";
  }
}

const std::nullopt_t kNone = std::nullopt;

TEST(SelectValue, Price) {
  ExpectSelections({
      {"price", "Our Price: $25.99", "$25.99"},
      {"price", "$ 5", "$ 5"},
      {"price", "$5", "$5"},
      {"price",
       "\xE2\x82\xAC"
       "12,50",
       "\xE2\x82\xAC"
       "12,50"},
      {"price",
       "Now \xC2\xA3"
       "1,299.00!",
       "\xC2\xA3"
       "1,299.00"},
      {"price",
       "\xC2\xA5"
       "1500",
       "\xC2\xA5"
       "1500"},
      {"price", "USD 12.99", "USD 12.99"},
      {"price", "12.99 USD", "12.99 USD"},
      {"price", "12.99", "12.99"},
      {"price", "1,299.00", "1,299.00"},
      {"price", "Price: 25,99 \xE2\x82\xAC", "25,99 \xE2\x82\xAC"},
      {"price", "List Price: US$ 30.00 You Save: $4.01", "US$ 30.00"},
      {"price", "C$19.95 CAD", "C$19.95"},
      {"price", "Sale $1,299 (was $1,499)", "$1,299"},
      {"price", "eur 9.90", "eur 9.90"},
      // UK listings (AMBER's real-estate and used-car verticals).
      {"price", "\xC2\xA3" "250,000", "\xC2\xA3" "250,000"},
      {"price", "Guide price \xC2\xA3" "1,200 pcm", "\xC2\xA3" "1,200"},
      {"price", "\xC2\xA3" "9,995 (was \xC2\xA3" "10,495)", "\xC2\xA3" "9,995"},
      {"price", "Offers over \xC2\xA3" "1,250,000", "\xC2\xA3" "1,250,000"},
      {"price", "Add to cart", kNone},
      {"price", "In stock", kNone},
      {"price", "Only 3 left", kNone},
      {"price", "Rated 4.5 out of 5", kNone},
      {"price", "ISBN 9780316125581", kNone},
      {"price", "Published June 2010", kNone},
      {"price", "Free shipping", kNone},
      {"price", "", kNone},
  });
}

TEST(SelectValue, Phone) {
  ExpectSelections({
      {"phone", "(212) 586-8655", "(212) 586-8655"},
      {"phone", "Tel: 212-586-8655", "212-586-8655"},
      {"phone", "212.586.8655", "212.586.8655"},
      {"phone", "212 586 8655", "212 586 8655"},
      {"phone", "1-800-555-1234", "1-800-555-1234"},
      {"phone", "Call +1 (212) 586-8655 today", "+1 (212) 586-8655"},
      {"phone", "+44 20 7946 0958", "+44 20 7946 0958"},
      {"phone", "+49 (0)30 123456", "+49 (0)30 123456"},
      {"phone", "+33 1 23 45 67 89", "+33 1 23 45 67 89"},
      {"phone", "Phone: 020 7946 0958", "020 7946 0958"},
      {"phone", "(020) 7946 0958", "(020) 7946 0958"},
      {"phone", "Call us", kNone},
      {"phone", "New York, NY 10019", kNone},
      {"phone", "9780316125581", kNone},
      {"phone", "0316125581", kNone},
      {"phone", "2125868655", kNone},
      {"phone", "12/06/2010", kNone},
      {"phone", "2010-06-12", kNone},
      {"phone", "$25.99", kNone},
      {"phone", "Open 9-5, +5 more", kNone},
  });
}

TEST(SelectValue, Zip) {
  ExpectSelections({
      {"zip", "10019", "10019"},
      {"zip", "New York, NY 10019", "10019"},
      {"zip", "NY 10019-1234, USA", "10019-1234"},
      {"zip", "London SW1A 1AA", "SW1A 1AA"},
      {"zip", "Manchester M1 1AE", "M1 1AE"},
      {"zip", "EC1A1BB", "EC1A1BB"},
      {"zip", "New York", kNone},
      {"zip", "(212) 586-8655", kNone},
      {"zip", "9780316125581", kNone},
      {"zip", "Since 2010", kNone},
      {"zip", "Suite 100", kNone},
  });
}

TEST(SelectValue, Date) {
  ExpectSelections({
      {"date", ": June 2010", "June 2010"},
      {"date", "Published: June 2010", "June 2010"},
      {"date", "Jun 12, 2010", "Jun 12, 2010"},
      {"date", "Published: June 12th, 2010 by Little", "June 12th, 2010"},
      {"date", "Saturday, June 12, 2010", "June 12, 2010"},
      {"date", "Sept. 3, 2009", "Sept. 3, 2009"},
      {"date", "2010-06-12", "2010-06-12"},
      {"date", "2010-06-12T10:00:00Z", "2010-06-12"},
      {"date", "12/06/2010", "12/06/2010"},
      {"date", "6/12/10", "6/12/10"},
      {"date", "12.06.2010", "12.06.2010"},
      {"date", "12 June 2010", "12 June 2010"},
      {"date", "12th of June, 2010", "12th of June, 2010"},
      {"date", "12-Jun-2010", "12-Jun-2010"},
      {"date", "JUNE 2010", "JUNE 2010"},
      {"date", "Released 06/2010", "06/2010"},
      {"date", "Copyright 1999", "1999"},
      {"date", "Add to cart", kNone},
      {"date", "May we help you?", kNone},
      {"date", "Marketing 101", kNone},
      {"date", "$25.99", kNone},
      {"date", "9780316125581", kNone},
      {"date", "32/13/99", kNone},
      {"date", "Page 3 of 12", kNone},
      {"date", "12345", kNone},
      {"date", "Junebug 2010s", kNone},
  });
}

TEST(SelectValue, Isbn) {
  ExpectSelections({
      {"isbn", ": 9780316125581", "9780316125581"},
      {"isbn", "ISBN-13: 978-0-316-12558-1", "978-0-316-12558-1"},
      {"isbn", "978 0 316 12558 1", "978 0 316 12558 1"},
      {"isbn", "ISBN 979-10-90636-07-1", "979-10-90636-07-1"},
      {"isbn", "ISBN: 0316125581", "0316125581"},
      {"isbn", "ISBN-10: 0-316-12558-X", "0-316-12558-X"},
      {"isbn", "080442957X (paperback)", "080442957X"},
      {"isbn", "(212) 586-8655", kNone},
      {"isbn", "212 586 8655", kNone},
      {"isbn", "12/06/2010", kNone},
      {"isbn", "Add to cart", kNone},
      {"isbn", "97803161", kNone},
      {"isbn", "97803161255811", kNone},
      {"isbn", "$25.99", kNone},
  });
}

TEST(SelectValue, Url) {
  ExpectSelections({
      {"url", "http://www.example.com/books/123",
       "http://www.example.com/books/123"},
      {"url", "See https://x.com/a?b=1.", "https://x.com/a?b=1"},
      {"url", "Link: (http://x.com/a)", "http://x.com/a"},
      {"url", "/books/123.html", "/books/123.html"},
      {"url", "//cdn.x.com/a", "//cdn.x.com/a"},
      {"url", "www.example.com", "www.example.com"},
      {"url", "Add to cart", kNone},
      {"url", "12/06/2010", kNone},
      {"url", "N/A", kNone},
      {"url", "and/or", kNone},
      {"url", "$5 / month", kNone},
      {"url", "http://", kNone},
  });
}

TEST(SelectValue, Image) {
  ExpectSelections({
      {"image", "http://x.com/covers/123.jpg", "http://x.com/covers/123.jpg"},
      {"image", "/img/a.PNG?v=2", "/img/a.PNG?v=2"},
      {"image", "cover.webp", "cover.webp"},
      {"image", "logo.svg.", "logo.svg"},
      {"image", "Image: //cdn.x.com/p/1.jpeg, 2x", "//cdn.x.com/p/1.jpeg"},
      {"image", "https://i.x.com/a.gif#frame", "https://i.x.com/a.gif#frame"},
      {"image", "http://x.com/a.html", kNone},
      {"image", "photo.jpgx", kNone},
      {"image", "a.jpg.html", kNone},
      {"image", "jpg", kNone},
      {"image", ".png", kNone},
      {"image", "report.pdf", kNone},
      {"image", "Add to cart", kNone},
  });
}

TEST(SelectValue, Number) {
  ExpectSelections({
      {"number", "4.5 out of 5 stars", "4.5"},
      {"number", "(1,234 reviews)", "1,234"},
      {"number", "-3", "-3"},
      {"number", "1,234.56", "1,234.56"},
      {"number", "1.234,56", "1.234,56"},
      {"number", "Rating: 42", "42"},
      {"number", "Add to cart", kNone},
      {"number", "N/A", kNone},
      {"number", "v2", kNone},
      {"number", "five", kNone},
  });
}

TEST(SelectValue, FreeTextReturnsTheText) {
  ExpectSelections({
      {"text", "The Passage", "The Passage"},
      {"text", "", ""},
  });
}

TEST(SelectValue, ExplicitRegexOverridesTheType) {
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromJson(
      R"js({"vertical":"book","attributes":[)js"
      R"js({"name":"edition","regex":"(\\d+)(?:st|nd|rd|th) edition"},)js"
      R"js({"name":"points","type":"price","regex":"\\d+ points"},)js"
      R"js({"name":"maybe","regex":"x*"},)js"
      R"js({"name":"optional_group","regex":"(a)?b"},)js"
      R"js({"name":"spaced","regex":"\\[( *\\w+ *)\\]"}]})js",
      "override.json");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(schema->ValueRegex(1)->pattern(), "\\d+ points");
  const std::vector<
      std::tuple<std::string, std::string, std::optional<std::string>>>
      cases = {
          {"edition", "2nd edition, revised", "2"},
          {"edition", "Second edition", kNone},
          {"points", "Earn 150 points ($1.50)", "150 points"},
          {"points", "$1.50", kNone},
          {"maybe", "abc", kNone},         // only an empty match
          {"optional_group", "b", kNone},  // the group did not take part
          {"optional_group", "ab", "a"},
          {"spaced", "tag [  blue ]", "blue"},  // the group is trimmed
      };
  for (const auto& [name, text, want] : cases) {
    const int index = schema->Find(name);
    ASSERT_GE(index, 0) << name;
    EXPECT_EQ(schema->SelectValue(index, text), want)
        << name << " on \"" << text << "\"";
  }
}

// ---- SWDE ground truth -----------------------------------------------------

struct GroundTruthValue {
  std::string file;
  std::string page;
  std::string value;  // as the file holds it, e.g. ": June 2010"
};

// Reads every value of the SWDE ground-truth files `dir`/*-`attribute`.txt.
std::vector<GroundTruthValue> ReadGroundTruth(const std::string& dir,
                                              const std::string& attribute) {
  std::vector<GroundTruthValue> values;
  absl::StatusOr<std::vector<std::string>> files =
      util::ListFiles(dir, {"-" + attribute + ".txt"});
  EXPECT_TRUE(files.ok()) << files.status().ToString();
  if (!files.ok()) return values;
  for (const std::string& file : *files) {
    absl::StatusOr<std::string> data = util::ReadFile(file);
    EXPECT_TRUE(data.ok()) << data.status().ToString();
    if (!data.ok()) continue;
    std::vector<std::string> lines = absl::StrSplit(*data, '\n');
    for (size_t l = 2; l < lines.size(); ++l) {  // line 1 header, 2 counts
      std::string line = lines[l];
      if (!line.empty() && line.back() == '\r') line.pop_back();
      std::vector<std::string> fields = absl::StrSplit(line, '\t');
      for (size_t f = 2; f < fields.size(); ++f) {
        if (fields[f].empty() || fields[f] == "<NULL>") continue;
        values.push_back({file, fields[0], fields[f]});
      }
    }
  }
  return values;
}

// The value without the ": " label separator SWDE keeps.
std::string Bare(std::string_view value) {
  while (!value.empty() && (value.front() == ':' || value.front() == ' ')) {
    value.remove_prefix(1);
  }
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  return std::string(value);
}

TEST(SwdeGroundTruth, BookIsbnAndDateValuesSelectThemselves) {
  const std::string dir =
      std::string(VERTEX_SHARED_DATA_DIR) + "/swde/groundtruth/book";
  if (!std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "SWDE ground truth not present at " << dir;
  }
  absl::StatusOr<CompiledSchema> schema =
      CompiledSchema::FromFile(SourcePath("deploy/schemas/book.json"));
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const int isbn = schema->Find("isbn_13");
  const int date = schema->Find("publication_date");
  // Each attribute's values select themselves and are not the other type.
  const std::vector<std::tuple<std::string, int, int>> attributes = {
      {"isbn_13", isbn, date}, {"publication_date", date, isbn}};
  for (const auto& [attribute, own, other] : attributes) {
    const std::vector<GroundTruthValue> values =
        ReadGroundTruth(dir, attribute);
    EXPECT_FALSE(values.empty()) << "no " << attribute << " values in " << dir;
    int failures = 0;
    for (const GroundTruthValue& v : values) {
      const std::optional<std::string> got = schema->SelectValue(own, v.value);
      const std::optional<std::string> cross =
          schema->SelectValue(other, v.value);
      if (got == Bare(v.value) && !cross.has_value()) continue;
      if (++failures <= 20) {
        ADD_FAILURE() << v.file << " page " << v.page << ": " << attribute
                      << " value \"" << v.value << "\" selected \""
                      << got.value_or("<none>") << "\", as the other type \""
                      << cross.value_or("<none>") << "\"";
      }
    }
    EXPECT_EQ(failures, 0) << attribute << ": " << failures << " of "
                           << values.size() << " values failed";
  }
}

TEST(SchemaTest, TheValueIsTheFirstGroupTakingPartInTheMatch) {
  absl::StatusOr<CompiledSchema> schema = CompiledSchema::FromJson(
      R"js({"vertical":"v","attributes":[{"name":"beds","regex":"(?i)\\b(\\d+) ?beds?\\b|\\bbeds?: ?(\\d+)\\b"},
                                         {"name":"whole","regex":"[a-z]+\\d"}]})js",
      "test.json");
  ASSERT_TRUE(schema.ok()) << schema.status();
  EXPECT_EQ(schema->SelectValue(0, "3 beds, garden").value_or("-"), "3");
  EXPECT_EQ(schema->SelectValue(0, "Beds: 4").value_or("-"), "4");
  EXPECT_FALSE(schema->SelectValue(0, "no number here").has_value());
  EXPECT_EQ(schema->SelectValue(1, "see ab1 now").value_or("-"), "ab1");
}

}  // namespace
}  // namespace vertex::schema
