import Foundation
import TestProcessSupport

extension CLI {
    /// Runs `catalog ARGUMENTS` with a pseudo-terminal as its stdout and stderr, as a person at a
    /// terminal would see it: returns the exit status and everything written to the terminal (both
    /// streams, in order; the terminal turns "\n" into "\r\n").
    static func runInTerminal(
        _ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]
    ) async throws -> (status: Int32, screen: String) {
        // posix_openpt and friends are not in Swift's Glibc module; these are the ioctls they wrap
        // (linux/include/uapi/asm-generic/ioctls.h: TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int)).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw CocoaError(.fileReadNoPermission) }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            throw CocoaError(.fileReadUnknown)
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw CocoaError(.fileReadNoPermission) }

        let process = WatchedProcess()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = Self.environment(in: folder, adding: ["TERM": "xterm-256color"].merging(environment) { _, new in new })
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardOutput = terminal
        process.standardError = terminal
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            close(slave)
            throw error
        }
        // Only the child holds the terminal now: reading ends (EIO) when it exits. The reads block, so
        // they run on a thread of their own, not on one of the test pool's.
        close(slave)
        let screen = await withCheckedContinuation { (done: CheckedContinuation<[UInt8], Never>) in
            Thread {
                var screen: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(master, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    screen += buffer[0..<count]
                }
                done.resume(returning: screen)
            }.start()
        }
        await process.exited()
        return (process.terminationStatus, String(decoding: screen, as: UTF8.self))
    }
}
