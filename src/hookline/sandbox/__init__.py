"""The sandbox for the bash tool: bubblewrap for the file system, an empty network
namespace with a filtering proxy for the network, and a seccomp filter that keeps Unix
sockets out — Claude Code's ``sandbox`` settings, enforced by the kernel."""
