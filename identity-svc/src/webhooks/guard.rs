//! What keeps a webhook from reaching inside the platform's network (SSRF): its URL must be
//! https, and every address its host resolves to must be public, when it is saved ([`check_url`])
//! and again at each connection ([`PublicOnly`], the HTTP client's resolver, so a name that
//! resolves elsewhere later, DNS rebinding, is caught then). `WEBHOOK_ALLOW_LOOPBACK` (development
//! and tests only) also lets http and loopback addresses through; private, link-local,
//! unique-local, CGNAT, multicast and unspecified addresses stay refused whatever it says.

use std::{
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    sync::Arc,
    time::Duration,
};

use reqwest::{
    Url,
    dns::{Addrs, Name, Resolve, Resolving},
};

/// How long saving a webhook waits for its name to resolve.
const LOOKUP_LIMIT: Duration = Duration::from_secs(2);

/// Whether `ip` may be called: a public address, or a loopback one when `allow_loopback`.
pub fn allowed(ip: IpAddr, allow_loopback: bool) -> bool {
    if ip.is_loopback() {
        return allow_loopback;
    }
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => allowed(IpAddr::V4(v4), allow_loopback),
            None => public_v6(v6),
        },
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_unspecified()
        || ip.is_documentation()
        || a == 0
        // CGNAT, 100.64.0.0/10
        || (a == 100 && (64..128).contains(&b))
        // IETF protocol assignments, 192.0.0.0/24
        || (a == 192 && b == 0 && c == 0)
        // Benchmarking, 198.18.0.0/15
        || (a == 198 && (b == 18 || b == 19))
        // Reserved, 240.0.0.0/4
        || a >= 240)
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // Unique local, fc00::/7
        || (first & 0xfe00) == 0xfc00
        // Link-local, fe80::/10
        || (first & 0xffc0) == 0xfe80
        // Site-local (deprecated), fec0::/10
        || (first & 0xffc0) == 0xfec0
        // Documentation, 2001:db8::/32
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
        // NAT64 of any IPv4 address, 64:ff9b::/96: the IPv4 one decides.
        || (first == 0x0064 && ip.segments()[1] == 0xff9b && !public_v4(embedded_v4(ip))))
}

fn embedded_v4(ip: Ipv6Addr) -> Ipv4Addr {
    let o = ip.octets();
    Ipv4Addr::new(o[12], o[13], o[14], o[15])
}

/// Why `raw` cannot be a webhook's URL, for the person who typed it; its parsed form otherwise.
/// A name is resolved here too: every address it resolves to must be allowed.
pub async fn check_url(raw: &str, allow_loopback: bool) -> Result<Url, String> {
    let url = Url::parse(raw.trim()).map_err(|_| {
        "The URL is not a valid absolute URL; give one such as https://example.com/hooks.".to_owned()
    })?;
    match url.scheme() {
        "https" => {}
        "http" if allow_loopback => {}
        _ => return Err("The URL must start with https:// (webhooks are only sent over HTTPS).".into()),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("The URL must not carry a user name or password; use the signing secret to authenticate deliveries.".into());
    }
    let host = url
        .host_str()
        .ok_or("The URL has no host.")?
        .trim_matches(['[', ']'])
        .to_owned();
    let refused = || {
        format!(
            "The URL's host {host} is a private, loopback or link-local address; webhooks are only sent to public addresses."
        )
    };
    if let Ok(ip) = host.parse::<IpAddr>() {
        return if allowed(ip, allow_loopback) {
            Ok(url)
        } else {
            Err(refused())
        };
    }
    let port = url.port_or_known_default().unwrap_or(443);
    // A name that does not resolve yet (a receiver not deployed yet, no DNS here) is saved: the
    // delivery's resolver checks its addresses at every connection anyway.
    let lookup = tokio::net::lookup_host((host.as_str(), port));
    if let Ok(Ok(found)) = tokio::time::timeout(LOOKUP_LIMIT, lookup).await {
        let addresses: Vec<SocketAddr> = found.collect();
        if addresses.iter().any(|a| !allowed(a.ip(), allow_loopback)) {
            return Err(format!(
                "The URL's host {host} resolves to a private, loopback or link-local address; webhooks are only sent to public addresses."
            ));
        }
    }
    Ok(url)
}

/// Whether the literal address of `url`'s host (if it is one) may be called. The resolver below
/// never sees a literal address, so the worker checks it before each attempt.
pub fn literal_allowed(url: &Url, allow_loopback: bool) -> bool {
    match url
        .host_str()
        .map(|h| h.trim_matches(['[', ']']).parse::<IpAddr>())
    {
        Some(Ok(ip)) => allowed(ip, allow_loopback),
        Some(Err(_)) => true,
        None => false,
    }
}

/// The HTTP client's DNS resolver: the system's, answering only the allowed addresses of a name,
/// and an error when none is.
#[derive(Clone, Copy, Debug)]
pub struct PublicOnly {
    pub allow_loopback: bool,
}

impl PublicOnly {
    pub fn shared(self) -> Arc<Self> {
        Arc::new(self)
    }
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_loopback = self.allow_loopback;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> = found
                .into_iter()
                .filter(|a| allowed(a.ip(), allow_loopback))
                .collect();
            if allowed.is_empty() {
                return Err(format!("{host} resolves to no public address").into());
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn private_loopback_link_local_and_friends_are_refused() {
        for refused in [
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "127.0.0.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "ff02::1",
            "::ffff:10.0.0.1",
            "::ffff:127.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(!allowed(ip(refused), false), "{refused} is refused");
        }
        for public in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(allowed(ip(public), false), "{public} is allowed");
        }
    }

    #[test]
    fn the_loopback_setting_lets_loopback_through_and_nothing_else() {
        assert!(allowed(ip("127.0.0.1"), true));
        assert!(allowed(ip("::1"), true));
        assert!(!allowed(ip("10.0.0.1"), true));
        assert!(!allowed(ip("169.254.169.254"), true));
    }

    #[tokio::test]
    async fn urls_are_checked_for_scheme_and_address() {
        assert!(
            check_url("http://93.184.216.34/", false)
                .await
                .unwrap_err()
                .contains("https://")
        );
        assert!(
            check_url("https://10.0.0.1/", false)
                .await
                .unwrap_err()
                .contains("private")
        );
        assert!(
            check_url("https://[fe80::1]/", false)
                .await
                .unwrap_err()
                .contains("private")
        );
        assert!(check_url("https://127.0.0.1:8443/", false).await.is_err());
        assert!(check_url("https://localhost/", false).await.is_err());
        assert!(check_url("https://u:p@93.184.216.34/", false).await.is_err());
        assert!(check_url("not a url", false).await.is_err());
        // Not resolvable now: saved, and checked at each connection.
        assert!(check_url("https://receiver.invalid/hooks", false).await.is_ok());
        assert!(check_url("https://93.184.216.34/hooks", false).await.is_ok());
        assert!(check_url("http://127.0.0.1:9/", true).await.is_ok());
        assert!(check_url("http://10.0.0.1/", true).await.is_err());
    }
}
