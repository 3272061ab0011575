extension PostgresConnection: SQLConnection {
  var dialect: SQLDialect { .postgresql }
}
