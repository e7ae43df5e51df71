#if AsyncHTTPClient
import AsyncHTTPClient

/// AsyncHTTPClient's configuration for the loopback servers: the test host resolved to 127.0.0.1
/// (`dnsOverride`: TLS still sees the name), a bounded connect.
enum HTTPClientConfigurationForTests {
    static func make() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.dnsOverride = [IntegrationPKI.host: "127.0.0.1"]
        configuration.timeout.connect = .seconds(5)
        return configuration
    }
}
#endif // AsyncHTTPClient
