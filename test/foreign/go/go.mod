module ccago

go 1.19
