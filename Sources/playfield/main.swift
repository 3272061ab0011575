PlayfieldCommand.main()
