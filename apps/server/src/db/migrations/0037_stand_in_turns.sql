CREATE TABLE "stand_in_turns" (
	"name" text PRIMARY KEY NOT NULL,
	"revision" bigint NOT NULL
);
