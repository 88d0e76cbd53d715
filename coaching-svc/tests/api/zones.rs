//! Time zones: of locations (named, derived by the gazetteer, refused when unknown or underivable,
//! filled in for locations saved before zones were kept), of coach profiles, and of the slot
//! booking-svc reads.

use proto::coaching::v1 as pb;
use tonic::{Code, Request};
use uuid::Uuid;

use crate::helpers::{TestApp, as_user, failure, location, location_at, profile_fields, recurring};

fn named(zone: &str, request: pb::CreateLocationRequest) -> pb::CreateLocationRequest {
    pb::CreateLocationRequest {
        time_zone: Some(zone.into()),
        ..request
    }
}

#[tokio::test]
async fn a_location_keeps_the_zone_its_coach_names() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let created = app
        .create_location(
            &coach,
            named(" America/Phoenix ", location_at("Gym", 30.27, -97.74)),
        )
        .await
        .unwrap();
    let listed = app
        .api()
        .list_my_locations(as_user(&coach, pb::ListMyLocationsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .locations;

    assert_eq!(created.time_zone, "America/Phoenix");
    assert_eq!(listed[0].time_zone, "America/Phoenix");
}

#[tokio::test]
async fn without_a_zone_the_coordinates_then_city_and_state_then_the_state_decide() {
    let app = TestApp::start().await;
    let coach = app.coach();

    // El Paso's coordinates: Mountain time, though the helper's city is in Kansas.
    let by_coordinates = app
        .create_location(&coach, location_at("West", 31.76, -106.49))
        .await
        .unwrap();
    let by_city = app
        .create_location(&coach, location("East", "El Paso", "Texas"))
        .await
        .unwrap();
    let by_state = app
        .create_location(&coach, location("North", "Nowhereville", "TX"))
        .await
        .unwrap();

    assert_eq!(by_coordinates.time_zone, "America/Denver");
    assert_eq!(by_city.time_zone, "America/Denver");
    assert_eq!(by_state.time_zone, "America/Chicago");
}

#[tokio::test]
async fn an_unknown_zone_name_or_a_place_no_zone_can_be_told_for_is_refused_and_nothing_added() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let unknown = app
        .create_location(&coach, named("America/Austin", location("Gym", "Austin", "TX")))
        .await;
    let underivable = app
        .create_location(&coach, location("Gym", "Toronto", "Ontario"))
        .await;
    let count = app
        .api()
        .count_coach_locations(as_user(
            &coach,
            pb::CountCoachLocationsRequest {
                coach_id: coach.id.to_string(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .count;

    assert!(
        failure(unknown, Code::InvalidArgument).contains("\"America/Austin\" is not one"),
        "an unknown zone names it"
    );
    assert!(failure(underivable, Code::OutOfRange).starts_with("time_zone is required"));
    assert_eq!(count, 0);
}

#[tokio::test]
async fn a_profile_takes_the_zone_given_keeps_it_on_updates_without_one_and_starts_at_utc() {
    let app = TestApp::start().await;
    let (ann, bob) = (app.coach(), app.coach());

    let zoned = app
        .create_profile(
            &ann,
            pb::CoachProfileFields {
                time_zone: Some("America/New_York".into()),
                ..profile_fields(50.0, 5, &[])
            },
        )
        .await
        .unwrap();
    let kept = app
        .api()
        .update_coach_profile(as_user(
            &ann,
            pb::UpdateCoachProfileRequest {
                fields: Some(profile_fields(60.0, 6, &[])),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .profile
        .unwrap();
    let plain = app
        .create_profile(&bob, profile_fields(40.0, 1, &[]))
        .await
        .unwrap();
    let bad = app
        .api()
        .update_coach_profile(as_user(
            &bob,
            pb::UpdateCoachProfileRequest {
                fields: Some(pb::CoachProfileFields {
                    time_zone: Some("Eastern".into()),
                    ..profile_fields(40.0, 1, &[])
                }),
            },
        ))
        .await;

    assert_eq!(zoned.time_zone, "America/New_York");
    assert_eq!(
        (kept.time_zone.as_str(), kept.hourly_rate),
        ("America/New_York", 60.0)
    );
    assert_eq!(plain.time_zone, "UTC");
    assert!(failure(bad, Code::InvalidArgument).contains("\"Eastern\" is not one"));
    assert_eq!(app.get_profile(&bob, bob.id).await.unwrap().time_zone, "UTC");
}

#[tokio::test]
async fn a_slot_is_in_its_location_s_zone_else_its_coach_s_else_utc() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let profileless = app.coach();
    app.create_profile(
        &coach,
        pb::CoachProfileFields {
            time_zone: Some("America/Los_Angeles".into()),
            ..profile_fields(50.0, 5, &[])
        },
    )
    .await
    .unwrap();
    let austin = app
        .create_location(&coach, location("Eastside", "Austin", "TX"))
        .await
        .unwrap();
    let placed = app
        .create_slot(
            &coach,
            pb::CreateSlotRequest {
                location_id: Some(austin.location_id),
                ..recurring("Friday", "17:00", "18:00")
            },
        )
        .await
        .unwrap();
    let bare = app
        .create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();
    let orphan = app
        .create_slot(&profileless, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();

    let zone = |slot_id: String| {
        let mut api = app.api();
        async move {
            api.get_slot(Request::new(pb::GetSlotRequest { slot_id }))
                .await
                .unwrap()
                .into_inner()
                .time_zone
        }
    };

    assert_eq!(zone(placed.slot_id).await, "America/Chicago");
    assert_eq!(zone(bare.slot_id).await, "America/Los_Angeles");
    assert_eq!(zone(orphan.slot_id).await, "UTC");
}

#[tokio::test]
async fn locations_saved_before_zones_were_kept_are_filled_in_once_in_batches_and_read_derived_until_then() {
    let app = TestApp::start().await;
    let coach = app.coach();
    // Rows as the previous version wrote them: no zone. 1,203 of them: three batches.
    let el_paso = Uuid::new_v4();
    sqlx::query(
        "insert into coaching.location (location_id, coach_id, name, city, state, latitude, longitude)
         values ($1, $2, 'Old West', 'El Paso', 'TX', 31.76, -106.49)",
    )
    .bind(el_paso)
    .bind(coach.id)
    .execute(&app.db)
    .await
    .unwrap();
    sqlx::query(
        "insert into coaching.location (location_id, coach_id, name, city, state)
         select gen_random_uuid(), $1, 'Old ' || n, 'Boise', 'Idaho' from generate_series(1, 1200) n",
    )
    .bind(Uuid::new_v4())
    .execute(&app.db)
    .await
    .unwrap();
    sqlx::query(
        "insert into coaching.location (location_id, coach_id, name, city, state)
         values (gen_random_uuid(), $1, 'Abroad', 'Toronto', 'Ontario'),
                (gen_random_uuid(), $1, 'Abroad 2', 'Leeds', 'Yorkshire')",
    )
    .bind(Uuid::new_v4())
    .execute(&app.db)
    .await
    .unwrap();

    // Before the fill-in, a read derives the zone.
    let listed = app
        .api()
        .list_my_locations(as_user(&coach, pb::ListMyLocationsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .locations;
    let first = coaching_svc::fill_in_location_zones(&app.db).await.unwrap();
    let second = coaching_svc::fill_in_location_zones(&app.db).await.unwrap();
    let zones: Vec<(String, i64)> = sqlx::query_as(
        "select coalesce(time_zone, 'NULL'), count(*) from coaching.location group by 1 order by 1",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();

    assert_eq!(listed[0].time_zone, "America/Denver");
    assert_eq!(first, 1203);
    assert_eq!(second, 0);
    assert_eq!(
        zones,
        vec![
            ("America/Boise".to_owned(), 1200),
            ("America/Denver".to_owned(), 1),
            ("UTC".to_owned(), 2),
        ]
    );
}
