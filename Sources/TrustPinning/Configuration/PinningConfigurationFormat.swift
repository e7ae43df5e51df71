/// A file format a ``PinningConfiguration`` is read from and written to: ``json``, ``ats``,
/// ``android`` or ``trustkit``. Each names the codec that reads and writes it; ``allCases`` is
/// every format, in the order recognition tries them.
public struct PinningConfigurationFormat: Hashable, Sendable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// The codec that recognises, reads and writes the format.
    package let codec: any PinningConfigurationCodec

    /// The format `codec` reads and writes.
    package init(_ codec: any PinningConfigurationCodec) {
        self.codec = codec
    }

    /// The format's name (`json`, `ats`, `android`, `trustkit`): what `--format` and `--to` accept.
    public var rawValue: String { codec.name }

    /// The format named `rawValue`, or nil when no format has that name.
    public init?(rawValue: String) {
        guard let codec = PinningConfigurationCodecs.codec(named: rawValue) else { return nil }
        self.init(codec)
    }

    /// Every format, in the order recognition tries them.
    public static var allCases: [PinningConfigurationFormat] { PinningConfigurationCodecs.all.map(Self.init) }

    /// The name used in messages.
    public var displayName: String { codec.displayName }

    /// The format's name, ``rawValue``.
    public var description: String { rawValue }

    /// Whether both name the same format.
    public static func == (lhs: PinningConfigurationFormat, rhs: PinningConfigurationFormat) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    /// Hashes the format's name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}
