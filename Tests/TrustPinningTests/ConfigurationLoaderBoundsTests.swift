import TrustDocuments
import Foundation
@testable import TrustPinning
import XCTest

/// Hostile configuration files (issue 31): every loader bounds bytes, keys and values, and depth,
/// refuses duplicate keys and answers at once — above all on binary property lists, which can
/// share objects (Foundation's reader on Linux expands a 300-byte file into 2^40 values).
final class ConfigurationLoaderBoundsTests: XCTestCase {
    // MARK: Binary property lists: sharing, cycles, depth

    /// Object n is `[n-1, n-1]`, 40 levels: 2^40 values once expanded.
    private func bomb(levels: Int = 40) -> (builder: BinaryPropertyListBuilder, top: Int) {
        var builder = BinaryPropertyListBuilder()
        var top = builder.ascii("x")
        for _ in 0..<levels { top = builder.array([top, top]) }
        return (builder, top)
    }

    func testExpansionBombIsRefusedAtOnce() throws {
        let (builder, top) = bomb()
        let data = builder.data(top: top, referenceSize: 1)
        XCTAssertLessThan(data.count, 400, "the reproduction is a few hundred bytes")
        for name in ["detected", "ATS", "TrustKit"] {
            var error: PinningConfigurationLoadError?
            let elapsed = ContinuousClock().measure {
                error = loadError { () throws(PinningConfigurationLoadError) in try Self.load(data, file: "bomb.plist", as: name) }
            }
            print("\(name): the \(data.count)-byte bomb refused in \(elapsed)")
            // About 0.3 ms in a debug build: the shared objects are counted, never expanded.
            XCTAssertLessThan(elapsed, .milliseconds(100), name)
            let refused = try XCTUnwrap(error, name)
            XCTAssertEqual(refused.file, "bomb.plist")
            XCTAssertEqual(
                refused.rule,
                .malformedDocument(
                    "binary property list: more than 100000 keys and values once shared objects are expanded (an object counts each time it is used)"),
                name)
            XCTAssertTrue(refused.keyPath?.hasPrefix("[0][0][0]") == true, "\(name): \(refused)")
        }
    }

    func testSharingWithinTheCapsIsExpanded() throws {
        // 10 levels: 2^11 - 1 = 2,047 values from 11 objects.
        let (builder, top) = bomb(levels: 10)
        var value = try PropertyListValue.parsePropertyList(builder.data(top: top), file: "f")
        for _ in 0..<10 {
            guard case let .array(elements) = value, elements.count == 2, elements[0] == elements[1] else { return XCTFail("\(value)") }
            value = elements[0]
        }
        XCTAssertEqual(value, .string("x"))
    }

    func testBombInsideAConfigurationIsRefusedAtItsKeyPath() throws {
        let bombed = bomb()
        var builder = bombed.builder
        let ats = builder.dictionary([(builder.ascii("NSPinnedDomains"), bombed.top)])
        let root = builder.dictionary([(builder.ascii("NSAppTransportSecurity"), ats)])
        let error = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.load(data: builder.data(top: root), file: "Info.plist")
            })
        XCTAssertTrue(error.keyPath?.hasPrefix("NSAppTransportSecurity.NSPinnedDomains[0][0]") == true, "\(error)")
        XCTAssertTrue(error.rule.isMalformedDocument, "\(error)")
    }

    func testSharedStringsCountEveryTimeTheyAreUsed() throws {
        var builder = BinaryPropertyListBuilder()
        let big = builder.ascii(String(repeating: "a", count: 100_000))
        let top = builder.array(Array(repeating: big, count: 11))
        let data = builder.data(top: top)
        XCTAssertLessThan(data.count, 101_000)
        let error = try XCTUnwrap(parseError(data))
        XCTAssertEqual(error.keyPath, "[10]")
        XCTAssertEqual(
            error.rule,
            .malformedDocument(
                "binary property list: more than 1048576 bytes of strings and data once shared objects are expanded (an object counts each time it is used)"
            ))
        // Ten uses are within the budget, and share one decoded string.
        var fewer = BinaryPropertyListBuilder()
        let string = fewer.ascii(String(repeating: "a", count: 100_000))
        let tenUses = fewer.array(Array(repeating: string, count: 10))
        XCTAssertNoThrow(try PropertyListValue.parsePropertyList(fewer.data(top: tenUses), file: "f"))
    }

    func testCyclesAreRefused() throws {
        var direct = BinaryPropertyListBuilder()
        let itself = direct.reserve()
        direct.setArray(itself, [itself])
        let directError = try XCTUnwrap(parseError(direct.data(top: itself)))
        XCTAssertEqual(directError.rule, .malformedDocument("binary property list: object 0 contains itself (a reference cycle)"))
        XCTAssertEqual(directError.keyPath, "[0]")

        var indirect = BinaryPropertyListBuilder()
        let outer = indirect.reserve()
        let inner = indirect.dictionary([(indirect.ascii("back"), outer)])
        indirect.setDictionary(outer, [(indirect.ascii("NSAppTransportSecurity"), inner)])
        let indirectError = try XCTUnwrap(parseError(indirect.data(top: outer)))
        XCTAssertEqual(indirectError.keyPath, "NSAppTransportSecurity.back")
        XCTAssertEqual(indirectError.rule, .malformedDocument("binary property list: object \(outer) contains itself (a reference cycle)"))
    }

    func testDepthIsCapped() throws {
        func nested(_ levels: Int) -> Data {
            var builder = BinaryPropertyListBuilder()
            var top = builder.array([])
            for _ in 1..<levels { top = builder.array([top]) }
            return builder.data(top: top)
        }
        XCTAssertNoThrow(try PropertyListValue.parsePropertyList(nested(64), file: "f"))
        let error = try XCTUnwrap(parseError(nested(65)))
        XCTAssertEqual(error.rule, .malformedDocument("binary property list: values nested more than 64 deep"))
        XCTAssertEqual(error.keyPath, String(repeating: "[0]", count: 64))
    }

    // MARK: Binary property lists: duplicate keys, types, structure

    func testDuplicateKeysAreRefusedNamingTheKey() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64
        var builder = BinaryPropertyListBuilder()
        let identity = builder.dictionary([(builder.ascii("SPKI-SHA256-BASE64"), builder.ascii(leaf))])
        let domain = builder.dictionary([(builder.ascii("NSPinnedLeafIdentities"), builder.array([identity]))])
        // Two key objects, one ASCII and one UTF-16, with equal text.
        let domains = builder.dictionary([(builder.ascii("swifttrust.test"), domain), (builder.utf16("swifttrust.test"), domain)])
        let ats = builder.dictionary([(builder.ascii("NSPinnedDomains"), domains)])
        let root = builder.dictionary([(builder.ascii("NSAppTransportSecurity"), ats)])
        let data = builder.data(top: root)
        for name in ["ATS", "detected"] {
            let error = try XCTUnwrap(loadError { () throws(PinningConfigurationLoadError) in try Self.load(data, file: "Info.plist", as: name) })
            XCTAssertEqual(error.keyPath, "NSAppTransportSecurity.NSPinnedDomains.swifttrust.test")
            XCTAssertNil(error.line)
            XCTAssertEqual(
                error.rule,
                .invalidValue(
                    "swifttrust.test", reason: "the key appears twice in the same dictionary, and only one of the two entries would be used"))
        }
        // The same key object used twice is a duplicate too.
        var again = BinaryPropertyListBuilder()
        let key = again.ascii("TSKPinnedDomains")
        let dictionary = again.dictionary([(key, again.boolean(true)), (key, again.boolean(false))])
        let twice = again.data(top: dictionary)
        XCTAssertEqual(try XCTUnwrap(parseError(twice)).keyPath, "TSKPinnedDomains")
    }

    func testTypesPinningDoesNotUseAreRefused() throws {
        let cases: [(String, [UInt8], String)] = [
            ("UID", [0x80, 0x01], "is a UID (0x8n, a keyed-archiver reference)"),
            ("set", [0xC0], "is a set (0xCn)"),
            ("ordered set", [0xB0], "is an ordered set (0xBn)"),
            ("null", [0x00], "is null (0x00)"),
            ("UUID", [0x0E], "is a UUID (0x0E)"),
            ("unknown", [0x70], "is of unknown type (marker 0x70)"),
        ]
        for (name, encoded, expected) in cases {
            var builder = BinaryPropertyListBuilder()
            let value = builder.add(encoded)
            let top = builder.array([value])
            let error = try XCTUnwrap(parseError(builder.data(top: top)), name)
            XCTAssertEqual(error.keyPath, "[0]", name)
            XCTAssertEqual(
                error.rule,
                .malformedDocument(
                    "binary property list: object 0 at byte 8 \(expected), which pinning configurations do not use"), name)
        }
        var keys = BinaryPropertyListBuilder()
        let dictionary = keys.dictionary([(keys.integer(1), keys.boolean(true))])
        let numberKey = keys.data(top: dictionary)
        XCTAssertEqual(
            try XCTUnwrap(parseError(numberKey)).rule,
            .malformedDocument("binary property list: object 0 at byte 8 is a dictionary key but not a string"))
    }

    func testEveryTypeReadsAsFoundationReadsItsXMLForm() throws {
        let xml = xmlPropertyList(
            """
            <dict>
                <key>ascii</key><string>plain text longer than fifteen characters</string>
                <key>unicode</key><string>Zürich 🔒 東京</string>
                <key>empty</key><string></string>
                <key>integers</key><array><integer>0</integer><integer>255</integer><integer>-1</integer>
                    <integer>9223372036854775807</integer><integer>-9223372036854775808</integer></array>
                <key>reals</key><array><real>1.5</real><real>-0.25</real></array>
                <key>date</key><date>2026-06-01T12:34:56Z</date>
                <key>data</key><data>AAECAwQFBgcICQoLDA0ODxAREhM=</data>
                <key>booleans</key><array><true/><false/></array>
                <key>long array</key><array>\(String(repeating: "<integer>7</integer>", count: 20))</array>
                <key>nested</key><dict><key>k</key><array><dict/><array/></array></dict>
            </dict>
            """)
        let expected = try PropertyListValue.parsePropertyList(xml, file: "x.plist")
        var builder = BinaryPropertyListBuilder()
        let top = builder.encode(expected)
        let ours = builder.data(top: top)
        XCTAssertEqual(try PropertyListValue.parsePropertyList(ours, file: "b.plist"), expected, "written by the test's encoder")
        XCTAssertEqual(
            try PropertyListValue.parsePropertyList(try binaryPropertyList(xml), file: "b.plist"), expected,
            "written by PropertyListSerialization")
    }

    func testIntegerWidthsAndSingleReals() throws {
        var builder = BinaryPropertyListBuilder()
        let values = [
            builder.add([0x11, 0x12, 0x34]),
            builder.add([0x12, 0x80, 0x00, 0x00, 0x00]),
            // 128 bits as CoreFoundation writes them: the high half sign-extends the low half.
            builder.add([0x14] + [UInt8](repeating: 0, count: 8) + [0x7F] + [UInt8](repeating: 0xFF, count: 7)),
            builder.add([0x14] + [UInt8](repeating: 0xFF, count: 16)),
            builder.add([0x22, 0x3F, 0xC0, 0x00, 0x00]),
        ]
        let top = builder.array(values)
        XCTAssertEqual(
            try PropertyListValue.parsePropertyList(builder.data(top: top), file: "f"),
            .array([.integer(0x1234), .integer(0x8000_0000), .integer(Int.max), .integer(-1), .real(1.5)]))
        var tooLarge = BinaryPropertyListBuilder()
        let unsigned = tooLarge.add([0x14] + [UInt8](repeating: 0, count: 8) + [0x80] + [UInt8](repeating: 0, count: 7))
        let tooLargeTop = tooLarge.array([unsigned])
        XCTAssertEqual(
            try XCTUnwrap(parseError(tooLarge.data(top: tooLargeTop))).rule,
            .malformedDocument("binary property list: object 0 at byte 8 is an integer out of range"))
    }

    func testMalformedStringsAreRefused() throws {
        var ascii = BinaryPropertyListBuilder()
        let latin1 = ascii.add([0x52, 0x41, 0xE9])
        let asciiTop = ascii.array([latin1])
        XCTAssertEqual(
            try XCTUnwrap(parseError(ascii.data(top: asciiTop))).rule,
            .malformedDocument("binary property list: object 0 at byte 8 is an ASCII string with byte 0xE9"))
        var utf16 = BinaryPropertyListBuilder()
        let surrogate = utf16.add([0x61, 0xD8, 0x00])
        let utf16Top = utf16.array([surrogate])
        XCTAssertEqual(
            try XCTUnwrap(parseError(utf16.data(top: utf16Top))).rule,
            .malformedDocument("binary property list: object 0 at byte 8 is a UTF-16 string with an unpaired surrogate"))
    }

    func testStructuralErrorsAreRefusedWithAReason() throws {
        var builder = BinaryPropertyListBuilder()
        let top = builder.array([builder.ascii("a")])
        let valid = builder.data(top: top)
        let tableOffsetField = valid.count - 8
        func patched(_ changes: [Int: UInt8]) -> Data {
            var data = valid
            for (index, byte) in changes { data[index] = byte }
            return data
        }
        let cases: [(String, Data, PinningConfigurationRule)] = [
            (
                "too short", Data("bplist00".utf8) + Data(repeating: 0, count: 31),
                .unrecognisedFormat(
                    "not an XML or binary property list: 39 bytes is too short for a binary property list (header and trailer take 40)")
            ),
            (
                "other version", Data("bplist15".utf8) + valid.dropFirst(8),
                .unrecognisedFormat("not an XML or binary property list: binary property list version \"15\" is not read (only bplist00)")
            ),
            (
                "offset size 0", patched([valid.count - 26: 0]),
                .malformedDocument("binary property list: trailer gives offsets of 0 bytes and references of 2 bytes (each must be 1 to 8)")
            ),
            (
                "top object out of range", patched([valid.count - 9: 9]),
                .malformedDocument("binary property list: trailer gives top object 9 of 2 objects")
            ),
            (
                "offset table past the trailer", patched([tableOffsetField: 0xFF]),
                .malformedDocument(
                    "binary property list: trailer gives an object count, top object or offset-table offset beyond the file's \(valid.count) bytes")
            ),
        ]
        for (name, data, rule) in cases {
            XCTAssertEqual(try XCTUnwrap(parseError(data), name).rule, rule, name)
        }
        var dangling = BinaryPropertyListBuilder()
        let array = dangling.array([5])
        XCTAssertEqual(
            try XCTUnwrap(parseError(dangling.data(top: array))).rule,
            .malformedDocument("binary property list: reference to object 5, but there are 1 objects"))
        var long = BinaryPropertyListBuilder()
        let claimsMore = long.add([0x5F, 0x12, 0x00, 0x10, 0x00, 0x00, 0x61])
        let longTop = long.array([claimsMore])
        XCTAssertEqual(
            try XCTUnwrap(parseError(long.data(top: longTop))).rule,
            .malformedDocument("binary property list: object 0 at byte 8 has 1048576 entries of 1 bytes, more than fit before byte 18"))
    }

    /// Every prefix and many one-byte changes of a real file: refused or loaded, never a trap, and
    /// at once.
    func testTruncatedAndDamagedFilesNeverCrash() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64, backup = try ConfigurationPins.backup().bareBase64
        let xml = xmlPropertyList(
            """
            <dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
                <key>swifttrust.test</key><dict><key>NSIncludesSubdomains</key><true/>
                    <key>NSPinnedLeafIdentities</key><array>
                        <dict><key>SPKI-SHA256-BASE64</key><string>\(leaf)</string></dict>
                        <dict><key>SPKI-SHA256-BASE64</key><string>\(backup)</string></dict></array></dict>
            </dict></dict></dict>
            """)
        var files = [try binaryPropertyList(xml)]
        var builder = BinaryPropertyListBuilder()
        let top = builder.encode(try PropertyListValue.parsePropertyList(xml, file: "x"))
        files.append(builder.data(top: top))
        let (bombBuilder, bombTop) = bomb()
        let bombFile = bombBuilder.data(top: bombTop, referenceSize: 1)
        var loads = 0
        let elapsed = ContinuousClock().measure {
            for file in files + [bombFile] {
                for length in 0...file.count {
                    _ = try? PinningConfiguration.load(data: file.prefix(length), file: "f", format: .ats)
                    loads += 1
                }
            }
            // Not the bomb: most of its one-byte changes are bombs still, each refused at the cap.
            for file in files {
                for index in file.indices {
                    for mask: UInt8 in [0x01, 0x10, 0x80, 0xFF] {
                        var damaged = file
                        damaged[index] ^= mask
                        _ = try? PinningConfiguration.load(data: damaged, file: "f")
                        loads += 1
                    }
                }
            }
        }
        print("\(loads) truncated and damaged binary property lists read in \(elapsed)")
        XCTAssertNoThrow(try PinningConfiguration.loadATS(data: files[0], file: "f"), "the undamaged file loads")
    }

    // MARK: Binary and XML alike

    func testBinaryConfigurationLoadsAsItsXMLForm() throws {
        let leaf = try ConfigurationPins.leaf().bareBase64, backup = try ConfigurationPins.backup().bareBase64
        let xml = xmlPropertyList(
            """
            <dict>
                <key>CFBundleVersion</key><integer>42</integer>
                <key>TSKConfiguration</key>
                <dict>
                    <key>TSKSwizzleNetworkDelegates</key><false/>
                    <key>TSKPinnedDomains</key>
                    <dict>
                        <key>swifttrust.test</key>
                        <dict>
                            <key>TSKIncludeSubdomains</key><true/>
                            <key>TSKEnforcePinning</key><false/>
                            <key>TSKPublicKeyHashes</key><array><string>\(leaf)</string><string>\(backup)</string></array>
                            <key>TSKReportUris</key><array><string>https://reports.swifttrust.test/pins</string></array>
                        </dict>
                    </dict>
                </dict>
            </dict>
            """)
        let expected = try PinningConfiguration.load(data: xml, file: "Info.plist")
        XCTAssertEqual(expected.domains.map(\.domain), ["swifttrust.test"])
        var builder = BinaryPropertyListBuilder()
        let top = builder.encode(try PropertyListValue.parsePropertyList(xml, file: "x"))
        let ours = builder.data(top: top)
        for binary in [ours, try binaryPropertyList(xml)] {
            XCTAssertEqual(PinningConfiguration.detectFormat(of: binary), .trustkit)
            XCTAssertEqual(try PinningConfiguration.load(data: binary, file: "Info.plist"), expected)
        }
    }

    func testXMLPropertyListsAreBounded() throws {
        let nodes = xmlPropertyList("<array>" + String(repeating: "<true/>", count: 100_000) + "</array>")
        let nodeError = try XCTUnwrap(parseError(nodes))
        XCTAssertEqual(nodeError.rule, .malformedDocument("line 4: more than 100000 elements"))
        XCTAssertEqual(nodeError.line, 4)
        // Foundation reads 512 levels; ours stops at 64 (the <plist> element is the first).
        let deep = xmlPropertyList(String(repeating: "<array>\n", count: 70) + String(repeating: "</array>", count: 70))
        let depthError = try XCTUnwrap(parseError(deep))
        XCTAssertEqual(depthError.rule, .malformedDocument("line 67: elements nested more than 64 deep"))
        // The same element cap applies to Android files (one reader); the root counts.
        let limits = XMLDocumentParser.Limits(maximumByteCount: 1000, maximumDepth: 64, maximumElementCount: 3)
        XCTAssertNoThrow(try XMLDocumentParser.parse(Array("<a><b/><c/></a>".utf8), limits: limits))
        XCTAssertThrowsError(try XMLDocumentParser.parse(Array("<a><b/>\n<c/><d/></a>".utf8), limits: limits)) { error in
            XCTAssertEqual(error as? XMLSyntaxError, XMLSyntaxError(line: 2, problem: .tooManyElements(limit: 3)))
        }
    }

    // MARK: JSON

    func testDuplicateKeysInTheJSONPinFormatAreRefused() throws {
        let pin = try ConfigurationPins.leaf().description
        let cases: [(String, String, String, Int)] = [
            (
                "enforcement twice",
                """
                {
                  "version": 1,
                  "domains": [
                    {
                      "domain": "swifttrust.test",
                      "pins": {"leaf": ["\(pin)"]},
                      "enforcement": "enforce",
                      "enforcement": "reportOnly"
                    }
                  ]
                }
                """, "domains[0].enforcement", 8
            ),
            (
                "escaped",
                """
                {"version": 1, "domains": [{"domain": "swifttrust.test", "pins": {"leaf": ["\(pin)"]},
                  "enforcement": "reportOnly", "enforcem\\u0065nt": "enforce"}]}
                """, "domains[0].enforcement", 2
            ),
            ("version twice", #"{"version": 1, "version": 2, "domains": []}"#, "version", 1),
            (
                "in the pins", #"{"version": 1, "domains": [{"domain": "a.test", "pins": {"leaf": ["\#(pin)"], "leaf": ["\#(pin)"]}}]}"#,
                "domains[0].pins.leaf", 1
            ),
        ]
        for (name, json, keyPath, line) in cases {
            let error = try XCTUnwrap(
                loadError { () throws(PinningConfigurationLoadError) in
                    try PinningConfiguration.load(data: Data(json.utf8), file: "pins.json", format: .json)
                }, name)
            XCTAssertEqual(error.keyPath, keyPath, name)
            XCTAssertEqual(error.line, line, name)
            let key = String(keyPath.split(separator: ".").last ?? "")
            XCTAssertEqual(
                error.rule,
                .invalidValue(
                    key, reason: "the key appears twice in the same dictionary, and only one of the two entries would be used"), name)
        }
    }

    func testJSONIsBounded() throws {
        // Foundation reads 512 levels; every loader stops at 64.
        let deep = #"{"TSKPinnedDomains": "# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        let depthError = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.loadTrustKit(data: Data(deep.utf8), file: "trustkit.json")
            })
        XCTAssertEqual(depthError.rule, .malformedDocument("values nested more than 64 deep"))
        XCTAssertEqual(depthError.keyPath, "TSKPinnedDomains" + String(repeating: "[0]", count: 63))
        XCTAssertEqual(depthError.line, 1)

        let wide =
            #"{"version": 1, "domains": [{"domain": "a.test", "pins": {"leaf": ["#
            + Array(repeating: "\"x\"", count: 100_000).joined(separator: ",\n") + "]}}]}"
        let nodeError = try XCTUnwrap(
            loadError { () throws(PinningConfigurationLoadError) in
                try PinningConfiguration.load(data: Data(wide.utf8), file: "pins.json")
            })
        XCTAssertEqual(nodeError.rule, .malformedDocument("more than 100000 keys and values"))
        XCTAssertEqual(nodeError.keyPath, "domains[0].pins.leaf[99988]")
        XCTAssertEqual(nodeError.line, 99989)
    }

    // MARK: Helpers

    /// Loads `data` with the loader `name`s: `detected` (the format recognised), `ATS` or `TrustKit`.
    private static func load(_ data: Data, file: String, as name: String) throws(PinningConfigurationLoadError) -> PinningConfiguration {
        switch name {
        case "ATS": return try PinningConfiguration.loadATS(data: data, file: file)
        case "TrustKit": return try PinningConfiguration.loadTrustKit(data: data, file: file)
        default: return try PinningConfiguration.load(data: data, file: file)
        }
    }

    /// The error reading `data` as a property list, failing the test when it reads.
    private func parseError(_ data: Data, file: StaticString = #filePath, line: UInt = #line) -> PinningConfigurationLoadError? {
        do {
            let value = try PropertyListValue.parsePropertyList(data, file: "f.plist")
            XCTFail("read \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}

/// Writes binary property lists object by object, so that tests can share objects and build what
/// no writer produces: cycles, duplicate keys, types pinning does not use.
struct BinaryPropertyListBuilder {
    private var objects: [[UInt8]] = []

    /// Adds an object's encoding as is; returns its number.
    mutating func add(_ encoded: [UInt8]) -> Int {
        objects.append(encoded)
        return objects.count - 1
    }

    /// A number for an object written later (to build cycles).
    mutating func reserve() -> Int { add([]) }

    mutating func setArray(_ object: Int, _ elements: [Int]) { objects[object] = Self.marker(0xA, elements.count) + elements.flatMap(Self.reference) }

    mutating func setDictionary(_ object: Int, _ members: [(Int, Int)]) {
        objects[object] = Self.marker(0xD, members.count) + members.flatMap { Self.reference($0.0) } + members.flatMap { Self.reference($0.1) }
    }

    mutating func array(_ elements: [Int]) -> Int {
        let object = reserve()
        setArray(object, elements)
        return object
    }

    mutating func dictionary(_ members: [(Int, Int)]) -> Int {
        let object = reserve()
        setDictionary(object, members)
        return object
    }

    mutating func ascii(_ string: String) -> Int { add(Self.marker(0x5, string.utf8.count) + Array(string.utf8)) }

    mutating func utf16(_ string: String) -> Int {
        add(Self.marker(0x6, string.utf16.count) + string.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }

    mutating func integer(_ value: Int) -> Int {
        (0...255).contains(value) ? add([0x10, UInt8(value)]) : add([0x13] + Self.bigEndian(UInt64(bitPattern: Int64(value)), size: 8))
    }

    mutating func boolean(_ value: Bool) -> Int { add([value ? 0x09 : 0x08]) }

    /// Writes a whole tree, keys sorted, strings ASCII when they can be.
    mutating func encode(_ value: PropertyListValue) -> Int {
        switch value {
        case let .dictionary(members):
            let pairs = members.keys.sorted().map { key in (encode(.string(key)), encode(members[key] ?? .null)) }
            return dictionary(pairs)
        case let .array(elements): return array(elements.map { encode($0) })
        case let .string(string): return string.allSatisfy(\.isASCII) ? ascii(string) : utf16(string)
        case let .boolean(bool): return boolean(bool)
        case let .integer(integer): return self.integer(integer)
        case let .real(real): return add([0x23] + Self.bigEndian(real.bitPattern, size: 8))
        case let .date(date): return add([0x33] + Self.bigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8))
        case let .data(data): return add(Self.marker(0x4, data.count) + Array(data))
        case .null: return add([0x00])
        }
    }

    /// The file: header, objects, offset table (4-byte offsets), trailer.
    func data(top: Int, referenceSize: Int = 2) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            // References are written 2 bytes wide; keep the low bytes for 1-byte references.
            bytes += referenceSize == 2 ? object : Self.narrowingReferences(object)
        }
        let table = bytes.count
        for offset in offsets { bytes += Self.bigEndian(UInt64(offset), size: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)]
        bytes += Self.bigEndian(UInt64(objects.count), size: 8) + Self.bigEndian(UInt64(top), size: 8) + Self.bigEndian(UInt64(table), size: 8)
        return Data(bytes)
    }

    private static func marker(_ type: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [type << 4 | UInt8(count)] : [type << 4 | 0x0F, 0x12] + bigEndian(UInt64(count), size: 4)
    }

    private static func reference(_ object: Int) -> [UInt8] { bigEndian(UInt64(object), size: 2) }

    /// An array or dictionary written with 2-byte references, rewritten with 1-byte ones (other
    /// objects unchanged).
    private static func narrowingReferences(_ object: [UInt8]) -> [UInt8] {
        guard let marker = object.first, [0xA, 0xD].contains(marker >> 4), marker & 0x0F != 0x0F else { return object }
        return [marker] + stride(from: 2, to: object.count, by: 2).map { object[$0] }
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
