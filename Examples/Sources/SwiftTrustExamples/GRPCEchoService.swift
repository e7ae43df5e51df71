import GRPCCore

/// Example (b)'s service, written by hand (no protoc): `swifttrust.example.Echo/Get` answers the
/// UTF-8 text it is sent.
public struct GRPCEchoService: RegistrableRPCService {
    /// The one method.
    public static let get = MethodDescriptor(fullyQualifiedService: "swifttrust.example.Echo", method: "Get")

    /// The service.
    public init() {}

    /// Registers `Get`.
    public func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(forMethod: Self.get, deserializer: UTF8Coder(), serializer: UTF8Coder()) { request, _ in
            var text = ""
            for try await message in request.messages { text += message }
            return StreamingServerResponse(single: ServerResponse(message: text))
        }
    }
}

/// A message codec for UTF-8 text: grpc-swift-2 takes any `MessageSerializer` / `MessageDeserializer`.
public struct UTF8Coder: MessageSerializer, MessageDeserializer {
    /// The codec.
    public init() {}

    /// The text's UTF-8 bytes.
    public func serialize<Bytes: GRPCContiguousBytes>(_ message: String) throws -> Bytes { Bytes(Array(message.utf8)) }

    /// The bytes as UTF-8 text (invalid sequences replaced).
    public func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> String {
        serializedMessageBytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
