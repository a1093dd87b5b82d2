import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Test hosts for the many-machines tests: one network namespace per host (`ip netns`), each with a veth
/// pair to a bridge that lives in a namespace of its own, with addresses from 198.18.0.0/15 (set aside for
/// benchmarks). The root namespace's network is never touched. Mount namespaces are not split, so every
/// host sees the same files (a shared mount, as the workers need).
///
/// Where namespaces cannot be made (not root, no `ip`, no CAP_NET_ADMIN), ``make(hosts:)`` falls back to
/// processes on loopback and ``isolated`` is false, with ``fallbackReason`` saying why
/// (`STICKER_TEST_LOOPBACK_HOSTS=1` asks for loopback, to try that path where namespaces work).
///
/// Names carry the test process's pid (`scnet-PID-…`): a run that crashed leaves namespaces that the next
/// run removes (their pid is gone), and two runs never share one. ``remove()`` deletes them all.
public final class TestNetwork: Sendable {
    /// One test host.
    public struct Host: Sendable {
        /// The host's name (its UTS host name too, where the host is a namespace).
        public let name: String
        /// Its network namespace; nil on loopback.
        public let namespace: String?
        /// Its address: 198.18.0.N, or 127.0.0.1 on loopback.
        public let address: String
    }

    static let prefix = "scnet-"

    /// The hosts, in the order asked for.
    public let hosts: [Host]
    /// True when the hosts are network namespaces; false when they are processes on loopback.
    public var isolated: Bool { fallbackReason == nil }
    /// Why the hosts are on loopback (nil when they are namespaces).
    public let fallbackReason: String?
    /// The address range the hosts' server should trust (CIDR).
    public let subnet: String
    private let namespaces: [String]
    private let ip: String?
    private let unshare: String?

    private init(hosts: [Host], fallbackReason: String?, subnet: String, namespaces: [String], ip: String?, unshare: String?) {
        self.hosts = hosts
        self.fallbackReason = fallbackReason
        self.subnet = subnet
        self.namespaces = namespaces
        self.ip = ip
        self.unshare = unshare
    }

    /// The host named `name`.
    public func host(_ name: String) -> Host {
        hosts.first { $0.name == name }!
    }

    /// Hosts named `names`, as namespaces when possible, else on loopback.
    public static func make(hosts names: [String]) -> TestNetwork {
        let loopback = { (reason: String) in
            TestNetwork(
                hosts: names.map { Host(name: $0, namespace: nil, address: "127.0.0.1") }, fallbackReason: reason,
                subnet: "127.0.0.1/32", namespaces: [], ip: nil, unshare: nil)
        }
        if ProcessInfo.processInfo.environment["STICKER_TEST_LOOPBACK_HOSTS"] == "1" {
            return loopback("STICKER_TEST_LOOPBACK_HOSTS=1 asks for it")
        }
        guard getuid() == 0 else { return loopback("not root, so no network namespaces can be made") }
        guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return loopback("no `ip` command (Debian's iproute2)")
        }
        removeStale(ip: ip)
        let base = "\(prefix)\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        let switchName = base + "-sw"
        var made: [String] = []
        do {
            try command(ip, ["netns", "add", switchName])
            made.append(switchName)
            try command(ip, ["-n", switchName, "link", "add", "br0", "type", "bridge"])
            try command(ip, ["-n", switchName, "link", "set", "br0", "up"])
            var hosts: [Host] = []
            for (index, name) in names.enumerated() {
                let namespace = "\(base)-\(index + 1)"
                let address = "198.18.0.\(index + 1)"
                try command(ip, ["netns", "add", namespace])
                made.insert(namespace, at: 0)
                // Both ends are made inside their namespaces: no interface ever appears in the root namespace.
                try command(ip, ["link", "add", "eth0", "netns", namespace, "type", "veth", "peer", "name", "port\(index + 1)", "netns", switchName])
                try command(ip, ["-n", switchName, "link", "set", "port\(index + 1)", "master", "br0"])
                try command(ip, ["-n", switchName, "link", "set", "port\(index + 1)", "up"])
                try command(ip, ["-n", namespace, "addr", "add", address + "/24", "dev", "eth0"])
                try command(ip, ["-n", namespace, "link", "set", "eth0", "up"])
                try command(ip, ["-n", namespace, "link", "set", "lo", "up"])
                hosts.append(Host(name: name, namespace: namespace, address: address))
            }
            let unshare = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }
            return TestNetwork(hosts: hosts, fallbackReason: nil, subnet: "198.18.0.0/24", namespaces: made, ip: ip, unshare: unshare)
        } catch {
            for namespace in made { _ = try? command(ip, ["netns", "del", namespace]) }
            return loopback("network namespaces cannot be made here (\(error))")
        }
    }

    /// The command line that runs `arguments` on `host`: in its namespace, under its own host name when
    /// `unshare` is there; as it is on loopback.
    public func command(on host: Host, _ arguments: [String]) -> [String] {
        guard let namespace = host.namespace, let ip else { return arguments }
        guard let unshare else { return [ip, "netns", "exec", namespace] + arguments }
        // A UTS namespace of its own, named after the host: leases and `work --status` show that name.
        return [ip, "netns", "exec", namespace, unshare, "--uts", "--", "/bin/sh", "-c",
                "echo \"$0\" > /proc/sys/kernel/hostname && exec \"$@\"", host.name] + arguments
    }

    /// The prefix that runs a program in `host`'s namespace (for the server's `pg_ctl start`); empty on loopback.
    public func launcher(for host: Host) -> [String] {
        guard let namespace = host.namespace, let ip else { return [] }
        return [ip, "netns", "exec", namespace]
    }

    /// Cuts `host` off the network without a word: its interface goes down, so what is sent to it or
    /// from it is dropped, and no connection of its is closed or reset (a machine powered off, a cable
    /// pulled). Only for namespaces.
    public func disconnect(_ host: Host) throws {
        guard let namespace = host.namespace, let ip else { return }
        try Self.command(ip, ["-n", namespace, "link", "set", "eth0", "down"])
    }

    /// Deletes the namespaces (and with them the veth pairs and the bridge). Processes still inside keep
    /// their namespace alive until they exit: stop them first.
    public func remove() {
        guard let ip else { return }
        for namespace in namespaces { _ = try? Self.command(ip, ["netns", "del", namespace]) }
    }

    /// The namespaces of test processes that are gone.
    private static func removeStale(ip: String) {
        guard let list = try? command(ip, ["netns", "list"]) else { return }
        for line in list.split(separator: "\n") {
            guard let name = line.split(separator: " ").first.map(String.init), name.hasPrefix(prefix),
                  let pid = pid_t(name.dropFirst(prefix.count).prefix { $0.isNumber }) else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            _ = try? command(ip, ["netns", "del", name])
        }
    }

    @discardableResult
    private static func command(_ executable: String, _ arguments: [String]) throws -> String {
        try PostgresTools.run(executable: executable, arguments)
    }
}
