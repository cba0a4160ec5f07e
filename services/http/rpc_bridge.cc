#include "services/http/rpc_bridge.h"

#include <google/protobuf/util/json_util.h>
#include <grpcpp/client_context.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/proto_buffer_reader.h>
#include <grpcpp/support/proto_buffer_writer.h>

#include <google/protobuf/struct.pb.h>

#include <future>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"

namespace vertex::http {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

std::unique_ptr<Message> NewMessage(const google::protobuf::Descriptor* type) {
  return std::unique_ptr<Message>(google::protobuf::MessageFactory::generated_factory()->GetPrototype(type)->New());
}

bool IsJsonContentType(const std::string& content_type) {
  static constexpr const char* kRaw[] = {"text/html",       "application/xhtml+xml", "text/plain",
                                         "application/octet-stream", "application/xml", "text/xml",
                                         "application/rss+xml", "application/atom+xml"};
  for (const char* raw : kRaw) {
    if (absl::StartsWithIgnoreCase(content_type, raw)) return false;
  }
  return true;
}

template <typename T>
absl::StatusOr<T> ParseNumber(const FieldDescriptor& field, const std::string& value) {
  T out{};
  bool ok;
  if constexpr (std::is_floating_point_v<T>) {
    double d = 0;
    ok = absl::SimpleAtod(value, &d);
    out = static_cast<T>(d);
  } else {
    ok = absl::SimpleAtoi(value, &out);
  }
  if (!ok) return absl::InvalidArgumentError(absl::StrCat("parameter ", field.name(), ": '", value, "' is not a ",
                                                          field.cpp_type_name()));
  return out;
}

// Sets (or, for a repeated field, adds) `value` to scalar `field`.
absl::Status SetScalar(Message* m, const FieldDescriptor& field, const std::string& value) {
  const Reflection* r = m->GetReflection();
  const bool rep = field.is_repeated();
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      rep ? r->AddString(m, &field, value) : r->SetString(m, &field, value);
      return absl::OkStatus();
#define VERTEX_SET_NUMBER(CPPTYPE, T, NAME)                                   \
  case FieldDescriptor::CPPTYPE: {                                            \
    VERTEX_ASSIGN_OR_RETURN(T v, ParseNumber<T>(field, value));               \
    rep ? r->Add##NAME(m, &field, v) : r->Set##NAME(m, &field, v);            \
    return absl::OkStatus();                                                  \
  }
      VERTEX_SET_NUMBER(CPPTYPE_INT32, int32_t, Int32)
      VERTEX_SET_NUMBER(CPPTYPE_INT64, int64_t, Int64)
      VERTEX_SET_NUMBER(CPPTYPE_UINT32, uint32_t, UInt32)
      VERTEX_SET_NUMBER(CPPTYPE_UINT64, uint64_t, UInt64)
      VERTEX_SET_NUMBER(CPPTYPE_DOUBLE, double, Double)
      VERTEX_SET_NUMBER(CPPTYPE_FLOAT, float, Float)
#undef VERTEX_SET_NUMBER
    case FieldDescriptor::CPPTYPE_BOOL: {
      const std::string v = absl::AsciiStrToLower(value);
      if (v != "true" && v != "false" && v != "1" && v != "0") {
        return absl::InvalidArgumentError(absl::StrCat("parameter ", field.name(), ": '", value, "' is not a bool"));
      }
      const bool b = v == "true" || v == "1";
      rep ? r->AddBool(m, &field, b) : r->SetBool(m, &field, b);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      const google::protobuf::EnumValueDescriptor* e = field.enum_type()->FindValueByName(value);
      int number = 0;
      if (e == nullptr && absl::SimpleAtoi(value, &number)) e = field.enum_type()->FindValueByNumber(number);
      if (e == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("parameter ", field.name(), ": '", value, "' is not a value of ", field.enum_type()->name()));
      }
      rep ? r->AddEnum(m, &field, e) : r->SetEnum(m, &field, e);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("parameter ", field.name(), " names a message field: give it in the JSON body"));
}

// A singular scalar's value as text, to compare a parameter with the body.
std::string ScalarText(const Message& m, const FieldDescriptor& field) {
  const Reflection* r = m.GetReflection();
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      return r->GetString(m, &field);
    case FieldDescriptor::CPPTYPE_INT32:
      return absl::StrCat(r->GetInt32(m, &field));
    case FieldDescriptor::CPPTYPE_INT64:
      return absl::StrCat(r->GetInt64(m, &field));
    case FieldDescriptor::CPPTYPE_UINT32:
      return absl::StrCat(r->GetUInt32(m, &field));
    case FieldDescriptor::CPPTYPE_UINT64:
      return absl::StrCat(r->GetUInt64(m, &field));
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return absl::StrCat(r->GetDouble(m, &field));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return absl::StrCat(r->GetFloat(m, &field));
    case FieldDescriptor::CPPTYPE_BOOL:
      return r->GetBool(m, &field) ? "true" : "false";
    case FieldDescriptor::CPPTYPE_ENUM:
      return r->GetEnum(m, &field)->name();
    case FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  return "";
}

// Sets parameter `name` = `value` on `m`; a singular field the body set
// already must have the same value.
absl::Status SetParameter(Message* m, const std::string& name, const std::string& value, const char* where) {
  const FieldDescriptor* field = m->GetDescriptor()->FindFieldByName(name);
  for (int i = 0; field == nullptr && i < m->GetDescriptor()->field_count(); ++i) {
    if (m->GetDescriptor()->field(i)->json_name() == name) field = m->GetDescriptor()->field(i);
  }
  if (field == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown ", where, " parameter '", name, "': ", m->GetDescriptor()->full_name(), " has no such field"));
  }
  if (field->is_repeated() || !m->GetReflection()->HasField(*m, field)) return SetScalar(m, *field, value);
  std::unique_ptr<Message> probe(m->New());
  VERTEX_RETURN_IF_ERROR(SetScalar(probe.get(), *field, value));
  if (ScalarText(*probe, *field) != ScalarText(*m, *field)) {
    return absl::InvalidArgumentError(absl::StrCat("field ", field->name(), " is '", ScalarText(*m, *field),
                                                   "' in the body but '", value, "' in the ", where));
  }
  return absl::OkStatus();
}

absl::Status FillBody(Message* m, const BridgeRequest& request) {
  if (!request.raw_body_field.empty() && !IsJsonContentType(request.content_type)) {
    const FieldDescriptor* raw = m->GetDescriptor()->FindFieldByName(request.raw_body_field);
    if (raw == nullptr) return absl::InternalError("route's raw body field " + request.raw_body_field + " is unknown");
    m->GetReflection()->SetString(m, raw, request.body);
    const FieldDescriptor* type = m->GetDescriptor()->FindFieldByName("content_type");
    if (type != nullptr && type->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      m->GetReflection()->SetString(m, type, request.content_type);
    }
    return absl::OkStatus();
  }
  if (absl::StripAsciiWhitespace(request.body).empty()) return absl::OkStatus();
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto parsed = google::protobuf::util::JsonStringToMessage(request.body, m, options);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("request body is not a JSON ", m->GetDescriptor()->full_name(),
                                                   ": ", std::string(parsed.message())));
  }
  return absl::OkStatus();
}

}  // namespace

int HttpStatusOf(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return 200;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::OUT_OF_RANGE:
      return 400;
    case grpc::StatusCode::UNAUTHENTICATED:
      return 401;
    case grpc::StatusCode::PERMISSION_DENIED:
      return 403;
    case grpc::StatusCode::NOT_FOUND:
      return 404;
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::ABORTED:
      return 409;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return 429;
    case grpc::StatusCode::CANCELLED:
      return 499;
    case grpc::StatusCode::UNIMPLEMENTED:
      return 501;
    case grpc::StatusCode::UNAVAILABLE:
      return 503;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return 504;
    default:
      return 500;
  }
}

std::string CodeName(grpc::StatusCode code) {
  static constexpr const char* kNames[] = {
      "OK",        "CANCELLED",         "UNKNOWN",        "INVALID_ARGUMENT",    "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
      "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
  const int i = static_cast<int>(code);
  return i >= 0 && i < static_cast<int>(std::size(kNames)) ? kNames[i] : "UNKNOWN";
}

std::string JsonString(const std::string& text) {
  // protobuf's JSON printer escapes a google.protobuf.Value's string; it
  // refuses text that is not UTF-8, so that is made valid first.
  google::protobuf::Value value;
  value.set_string_value(util::ToValidUtf8(text));
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(value, &out).ok()) return "\"\"";
  return out;
}

std::string ErrorJson(const std::string& code_name, const std::string& message) {
  return absl::StrCat("{\"code\": ", JsonString(code_name), ", \"message\": ", JsonString(message), "}");
}

HttpReply ErrorReply(grpc::StatusCode code, const std::string& message) {
  return {HttpStatusOf(code), "application/json", ErrorJson(CodeName(code), message)};
}

absl::StatusOr<std::unique_ptr<Message>> BuildRequestMessage(const google::protobuf::MethodDescriptor& method,
                                                             const BridgeRequest& request) {
  std::unique_ptr<Message> m = NewMessage(method.input_type());
  VERTEX_RETURN_IF_ERROR(FillBody(m.get(), request));
  for (const auto& [name, value] : request.path_params) VERTEX_RETURN_IF_ERROR(SetParameter(m.get(), name, value, "path"));
  for (const auto& [name, value] : request.query) VERTEX_RETURN_IF_ERROR(SetParameter(m.get(), name, value, "query"));
  return m;
}

std::string MessageToJson(const Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  const auto printed = google::protobuf::util::MessageToJsonString(message, &out, options);
  if (!printed.ok()) return ErrorJson("INTERNAL", "cannot print the response: " + std::string(printed.message()));
  return out;
}

RpcBridge::RpcBridge(std::shared_ptr<grpc::Channel> channel) : channel_(channel), stub_(channel) {}

HttpReply RpcBridge::Call(const google::protobuf::MethodDescriptor& method, const Message& request,
                          const std::string& authorization, const std::string& peer) const {
  for (char c : authorization) {
    if (c < 0x20 || c > 0x7e) {
      return ErrorReply(grpc::StatusCode::UNAUTHENTICATED, "the Authorization header is not printable ASCII");
    }
  }
  grpc::ClientContext context;
  if (!authorization.empty()) context.AddMetadata("authorization", authorization);
  if (!peer.empty()) context.AddMetadata("x-forwarded-for", peer);
  grpc::ByteBuffer in, out;
  bool own = false;
  if (grpc::Status s = grpc::SerializationTraits<Message>::Serialize(request, &in, &own); !s.ok()) {
    return ErrorReply(s.error_code(), s.error_message());
  }
  std::promise<grpc::Status> done;
  stub_.UnaryCall(&context, absl::StrCat("/", method.service()->full_name(), "/", method.name()), grpc::StubOptions(),
                  &in, &out, [&done](grpc::Status s) { done.set_value(std::move(s)); });
  const grpc::Status status = done.get_future().get();
  if (!status.ok()) return ErrorReply(status.error_code(), status.error_message());
  std::unique_ptr<Message> response = NewMessage(method.output_type());
  if (grpc::Status s = grpc::SerializationTraits<Message>::Deserialize(&out, response.get()); !s.ok()) {
    return ErrorReply(grpc::StatusCode::INTERNAL, "cannot parse the response: " + s.error_message());
  }
  return {200, "application/json", MessageToJson(*response)};
}

}  // namespace vertex::http
