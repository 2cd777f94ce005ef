# Homebrew formula for sbx (macOS and Linux). Same install layout as the .deb
# and the RPM: everything goes through `make install` (packaging/packaging.mk)
# with Homebrew's directories. The url and sha256 are placeholders until the
# project publishes release tarballs; no licence is declared until the
# project chooses one (see packaging/debian/copyright).
class Sbx < Formula
  desc "OS-level sandbox for AI coding agents"
  homepage "https://example.invalid/sbx"
  url "https://example.invalid/sbx/sbx-0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"

  depends_on "pkgconf" => :build
  depends_on "jansson"
  depends_on "libevent"
  depends_on "openssl@3"
  depends_on "protobuf-c"

  on_linux do
    depends_on "libseccomp"
    depends_on "systemd"
  end

  def install
    system "make", "WERROR=0", "all"
    # org policy lives under Homebrew's etc, not /etc; units and the AppArmor
    # profile are installed for reference (Homebrew does not enable them).
    system "make", "install",
           "PREFIX=#{prefix}",
           "SYSCONFDIR=#{etc}",
           "MANDIR=#{man}",
           "BASHCOMPDIR=#{bash_completion}",
           "ZSHCOMPDIR=#{zsh_completion}",
           "SYSTEMDUSERUNITDIR=#{lib}/systemd/user",
           "SYSTEMDSYSTEMUNITDIR=#{lib}/systemd/system",
           "APPARMORDIR=#{pkgshare}/apparmor"
  end

  # `brew services start sbx` keeps a daemon running from login on. Without it
  # sbxctl starts sbxd on first use, so this is optional.
  service do
    run [opt_bin/"sbxd", "--foreground"]
    keep_alive true
    log_path var/"log/sbxd.log"
    error_log_path var/"log/sbxd.log"
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/sbxd --version")
    assert_path_exists man8/"sbxd.8"
    assert_path_exists zsh_completion/"_sbxctl"
  end
end
