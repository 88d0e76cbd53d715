//! The money math, pure: whole cents in `i64`, products taken in `i128` so no sum overflows, no
//! floats anywhere. Every share (a percent of a price, the platform's basis points of a capture, a
//! refund's part of a fee) rounds half away from zero, on whole cents.

/// The platform's basis points in a whole (10,000 bps = 100 %).
pub const BPS_WHOLE: i64 = 10_000;

/// The default late-cancellation fee, in percent of the price (a policy without one).
pub const DEFAULT_LATE_FEE_PERCENT: i32 = 50;

/// The default no-show fee, in percent of the price.
pub const DEFAULT_NO_SHOW_FEE_PERCENT: i32 = 100;

/// `numerator / denominator` rounded half away from zero. `denominator` must be positive.
fn div_round(numerator: i128, denominator: i128) -> i64 {
    debug_assert!(denominator > 0);
    let half = denominator / 2;
    let rounded = if numerator >= 0 {
        (numerator + half) / denominator
    } else {
        (numerator - half) / denominator
    };
    // Every caller divides a product of cents by at least one of its factors' bound: it fits.
    i64::try_from(rounded).unwrap_or(if rounded > 0 { i64::MAX } else { i64::MIN })
}

/// A session's price: `hourly_rate_cents` for `minutes` minutes, rounded to the cent. A negative
/// rate or length costs nothing.
pub fn price_cents(hourly_rate_cents: i64, minutes: i64) -> i64 {
    if hourly_rate_cents <= 0 || minutes <= 0 {
        return 0;
    }
    div_round(i128::from(hourly_rate_cents) * i128::from(minutes), 60)
}

/// `percent` (clamped to 0..=100) of `amount`, rounded to the cent.
pub fn percent_of(amount: i64, percent: i32) -> i64 {
    let percent = percent.clamp(0, 100);
    div_round(i128::from(amount) * i128::from(percent), 100)
}

/// The platform's fee on a capture of `captured` cents at `fee_bps` basis points (clamped to
/// 0..=10,000), rounded to the cent.
pub fn platform_fee(captured: i64, fee_bps: i64) -> i64 {
    let bps = fee_bps.clamp(0, BPS_WHOLE);
    div_round(i128::from(captured) * i128::from(bps), i128::from(BPS_WHOLE))
}

/// What a booking's capture stands at when a refund of it is booked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captured {
    /// Captured, in all.
    pub amount: i64,
    /// The platform's fee on it.
    pub fee: i64,
    /// Refunded before this refund.
    pub refunded: i64,
    /// The fee earlier refunds returned.
    pub fee_returned: i64,
}

/// The part of the platform's fee a refund of `refund` cents returns: in proportion to the
/// capture (`fee × refund / captured`, rounded), and the refund that empties the capture returns
/// exactly the rest of the fee, so what the refunds return never drifts from what was taken.
pub fn refund_fee(captured: Captured, refund: i64) -> i64 {
    let rest = (captured.fee - captured.fee_returned).max(0);
    if captured.amount <= 0 || refund <= 0 {
        return 0;
    }
    if captured.refunded + refund >= captured.amount {
        return rest;
    }
    div_round(
        i128::from(captured.fee) * i128::from(refund),
        i128::from(captured.amount),
    )
    .clamp(0, rest)
}

/// `cents` as a person reads dollars: "$75.00", "$0.05", "$1,234.50".
pub fn dollars(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{sign}${grouped}.{:02}", cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_price_is_the_rate_for_the_minutes_rounded_half_away_from_zero() {
        assert_eq!(price_cents(7500, 60), 7500);
        assert_eq!(price_cents(7500, 90), 11_250);
        assert_eq!(price_cents(7500, 30), 3750);
        // 4999 × 45 / 60 = 3749.25 → 3749; 5001 × 30 / 60 = 2500.5 → 2501.
        assert_eq!(price_cents(4999, 45), 3749);
        assert_eq!(price_cents(5001, 30), 2501);
        // 1 cent an hour for 30 minutes is half a cent: rounds up to one.
        assert_eq!(price_cents(1, 30), 1);
        assert_eq!(price_cents(1, 29), 0);
    }

    #[test]
    fn a_free_rate_or_no_length_costs_nothing() {
        assert_eq!(price_cents(0, 60), 0);
        assert_eq!(price_cents(7500, 0), 0);
        assert_eq!(price_cents(-100, 60), 0);
        assert_eq!(price_cents(100, -60), 0);
    }

    #[test]
    fn a_huge_rate_does_not_overflow() {
        assert_eq!(price_cents(i64::MAX / 2, 120), i64::MAX - 1);
    }

    #[test]
    fn zero_percent_is_nothing_and_a_hundred_is_all() {
        assert_eq!(percent_of(7500, 0), 0);
        assert_eq!(percent_of(7500, 100), 7500);
        assert_eq!(percent_of(7501, 100), 7501);
        assert_eq!(percent_of(0, 50), 0);
    }

    #[test]
    fn a_percent_that_lands_on_half_a_cent_rounds_away_from_zero() {
        // 50 % of 75.01 is 37.505 → 37.51.
        assert_eq!(percent_of(7501, 50), 3751);
        assert_eq!(percent_of(7500, 50), 3750);
        // 33 % of 1.50 is 0.495 → 0.50; 33 % of 1.49 is 0.4917 → 0.49.
        assert_eq!(percent_of(150, 33), 50);
        assert_eq!(percent_of(149, 33), 49);
        // A negative amount mirrors a positive one.
        assert_eq!(percent_of(-7501, 50), -3751);
    }

    #[test]
    fn a_percent_outside_0_to_100_is_clamped() {
        assert_eq!(percent_of(1000, 150), 1000);
        assert_eq!(percent_of(1000, -5), 0);
    }

    #[test]
    fn the_platform_fee_is_its_basis_points_of_the_capture() {
        assert_eq!(platform_fee(7500, 1000), 750);
        // 10 % of 0.05 is half a cent: one cent.
        assert_eq!(platform_fee(5, 1000), 1);
        assert_eq!(platform_fee(4, 1000), 0);
        // 2.5 % (250 bps) of 1.00 is 2.5 cents → 3.
        assert_eq!(platform_fee(100, 250), 3);
        assert_eq!(platform_fee(7500, 0), 0);
        assert_eq!(platform_fee(7500, 10_000), 7500);
        assert_eq!(platform_fee(7500, 20_000), 7500);
    }

    fn capture(amount: i64, fee: i64) -> Captured {
        Captured {
            amount,
            fee,
            refunded: 0,
            fee_returned: 0,
        }
    }

    #[test]
    fn a_whole_refund_returns_the_whole_fee() {
        assert_eq!(refund_fee(capture(7500, 750), 7500), 750);
    }

    #[test]
    fn a_partial_refund_returns_the_fee_in_proportion_rounded() {
        assert_eq!(refund_fee(capture(7500, 750), 2500), 250);
        // 750 × 1 / 7500 = 0.1 → 0; 751 × 3750 / 7501 = 375.45 → 375.
        assert_eq!(refund_fee(capture(7500, 750), 1), 0);
        assert_eq!(refund_fee(capture(7501, 751), 3750), 375);
        // 5 × 1 / 2 = 2.5 → 3 (half away from zero).
        assert_eq!(refund_fee(capture(2, 5), 1), 3);
    }

    #[test]
    fn the_refund_that_empties_the_capture_returns_exactly_the_rest() {
        // Three refunds of 1/3 each: 250 + 250 + the rest.
        let mut state = capture(7500, 750);
        let mut returned = Vec::new();
        for part in [2500, 2500, 2500] {
            let fee = refund_fee(state, part);
            returned.push(fee);
            state.refunded += part;
            state.fee_returned += fee;
        }
        assert_eq!(returned, [250, 250, 250]);

        // Fees that round the same way each time would drift: 1-cent refunds of a 3-cent
        // capture with a 1-cent fee return 0, 0 and then the whole cent.
        let mut state = capture(3, 1);
        let mut returned = Vec::new();
        for _ in 0..3 {
            let fee = refund_fee(state, 1);
            returned.push(fee);
            state.refunded += 1;
            state.fee_returned += fee;
        }
        assert_eq!(returned, [0, 0, 1]);
        assert_eq!(state.fee_returned, state.fee);

        // And ones that round up stop at the fee: 2 cents of fee, captures of 3, refunds of 1:
        // 0.67 → 1, 1, and the last returns what is left: 0.
        let mut state = capture(3, 2);
        let mut returned = Vec::new();
        for _ in 0..3 {
            let fee = refund_fee(state, 1);
            returned.push(fee);
            state.refunded += 1;
            state.fee_returned += fee;
        }
        assert_eq!(returned, [1, 1, 0]);
    }

    #[test]
    fn nothing_captured_or_nothing_refunded_returns_no_fee() {
        assert_eq!(refund_fee(capture(0, 0), 100), 0);
        assert_eq!(refund_fee(capture(7500, 750), 0), 0);
    }

    #[test]
    fn dollars_read_as_a_person_writes_them() {
        assert_eq!(dollars(7500), "$75.00");
        assert_eq!(dollars(5), "$0.05");
        assert_eq!(dollars(123_450), "$1,234.50");
        assert_eq!(dollars(100_000_000), "$1,000,000.00");
        assert_eq!(dollars(-3750), "-$37.50");
    }
}
